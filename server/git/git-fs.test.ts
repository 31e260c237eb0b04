import { createFsFromVolume, Volume } from 'memfs'
import { expect, test } from 'vitest'
import { gitFs } from './git-fs.ts'

test("isomorphic-git's probe (readFile with no path) is answered by one rejection made once; reads with a path go through", async () => {
  const volume = createFsFromVolume(new Volume())
  await volume.promises.writeFile('/a.txt', 'text')
  const { promises } = gitFs(volume.promises) as unknown as { promises: { readFile: (...args: unknown[]) => Promise<unknown> } }
  const probe = promises.readFile()
  // The same promise each time: no new error, no new stack trace (isomorphic-git probes twice per call).
  expect(promises.readFile()).toBe(probe)
  await expect(probe).rejects.toThrow('readFile needs a path')
  expect(String(await promises.readFile('/a.txt', 'utf8'))).toBe('text')
  await expect(promises.readFile('/missing.txt')).rejects.toMatchObject({ code: 'ENOENT' })
})
