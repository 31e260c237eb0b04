import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseConfig } from '../config.ts'
import { consoleLogger } from '../log.ts'
import { createSearchService } from './service.ts'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

function serviceFor(directory: string) {
  const config = parseConfig({
    store: { kind: 'memory' },
    projects: [{ id: 'p', organization: 'o', domain: 'docs.example.com', docs: { directory } }],
  })
  return createSearchService({ config, log: consoleLogger('silent'), fetch, env: {} })
}

describe('search service', () => {
  it('loads a directory corpus once and shares it between callers', async () => {
    const service = serviceFor('demo/docs')
    const [a, b] = await Promise.all([service.corpus('p'), service.corpus('p')])
    expect(a).toBe(b)
    expect(a.pages().length).toBe(46)
    await expect(service.corpus('other')).rejects.toThrow(/no project "other"/)
  })

  it('refresh rebuilds when the docs change; queries keep the old corpus until the new one is ready', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-docs-'))
    dirs.push(dir)
    await cp('demo/docs', dir, { recursive: true })
    const service = serviceFor(dir)
    const before = await service.corpus('p')
    expect(await service.refresh('p')).toEqual({ revision: before.revision, changed: false })

    await writeFile(
      join(dir, 'guides', 'kill-switches.mdx'),
      '---\ntitle: Kill switches\n---\n\nA kill switch turns a feature off in an emergency without a deploy.\n',
    )
    const refreshing = service.refresh('p')
    expect(await service.corpus('p')).toBe(before)
    const result = await refreshing
    expect(result.changed).toBe(true)
    const after = await service.corpus('p')
    expect(after.revision).toBe(result.revision)
    expect(after.search('emergency kill switch', { pageSize: 1 })[0]?.section.path).toBe('guides/kill-switches')
    expect(before.search('emergency kill switch', { pageSize: 1 })[0]?.section.path).not.toBe('guides/kill-switches')
  })

  it('a missing directory fails the load; queries get that error for a few seconds, and a refresh loads it once there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docent-docs-'))
    dirs.push(dir)
    const service = serviceFor(join(dir, 'later'))
    await expect(service.corpus('p')).rejects.toThrow(/ENOENT/)
    await cp('demo/docs', join(dir, 'later'), { recursive: true })
    // Held: every query tried the load again (a git source was cloned again each time).
    await expect(service.corpus('p')).rejects.toThrow(/ENOENT/)
    expect(await service.refresh('p')).toMatchObject({ changed: true })
    expect((await service.corpus('p')).pages().length).toBe(46)
  })
})
