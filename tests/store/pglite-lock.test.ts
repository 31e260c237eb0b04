import { spawn } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { sampleKey } from '../../server/store/conformance.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import { pgliteDataDir } from '../support/pglite.ts'

const dir = await mkdtemp(join(tmpdir(), 'docent-pglite-lock-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

/** Another process that opens the store, writes a key, says so, and then holds the data directory until killed. */
async function holder(dataDir: string, hash: string) {
  const script = join(dir, 'holder.mts')
  await writeFile(
    script,
    `import { openPgliteStore } from ${JSON.stringify(resolve('server/store/sql/pglite.ts'))}
     const store = await openPgliteStore(${JSON.stringify(dataDir)})
     await store.insertKey({ id: 'k-held', hash: ${JSON.stringify(
       hash,
     )}, kind: 'admin', organization: 'o', projectId: null, name: null, last4: 'abcd', createdAt: new Date(), expiresAt: null, revokedAt: null })
     console.log('ready')
     setInterval(() => {}, 1000)`,
  )
  const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((done, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && done())
    child.once('exit', (code) => fail(new Error(`holder exited with ${code}`)))
  })
  return child
}

test('a second process is refused the PGlite data directory; after the owner dies it opens with the data intact', async () => {
  const dataDir = await pgliteDataDir(join(dir, 'pglite'))
  const child = await holder(dataDir, 'hash-held')
  try {
    await expect(openPgliteStore(dataDir)).rejects.toThrow(`in use by process ${child.pid}`)
  } finally {
    const exited = new Promise((done) => child.once('exit', done))
    child.kill('SIGKILL')
    await exited
  }
  // The lock left behind names a dead process: it is taken over.
  const store = await openPgliteStore(dataDir)
  try {
    expect((await store.findKeyByHash('hash-held'))?.id).toBe('k-held')
    await store.insertKey(sampleKey({ hash: 'hash-mine' }))
  } finally {
    await store.close()
  }
  // Within one process, close and open again as often as needed.
  const again = await openPgliteStore(dataDir)
  expect((await again.findKeyByHash('hash-mine'))?.hash).toBe('hash-mine')
  await again.close()
})

test('a lock from another host is honoured while its owner keeps touching it, and taken over once it goes stale', async () => {
  const { lockDataDir } = await import('../../server/store/sql/data-dir-lock.ts')
  const { utimes } = await import('node:fs/promises')
  const target = join(dir, 'elsewhere')
  await writeFile(`${target}.lock`, JSON.stringify({ pid: 4242, host: 'another-host' }))
  await expect(lockDataDir(target)).rejects.toThrow('in use by process 4242 on another-host')
  const minuteAgo = new Date(Date.now() - 60_000)
  await utimes(`${target}.lock`, minuteAgo, minuteAgo)
  const release = await lockDataDir(target)
  await expect(readFile(`${target}.lock`, 'utf8')).resolves.toContain(`"pid":${process.pid}`)
  // Two stores on one directory in one process would corrupt it as well.
  await expect(lockDataDir(target)).rejects.toThrow('already open in this process')
  await release()
  await expect(readFile(`${target}.lock`, 'utf8')).rejects.toThrow()
  await (await lockDataDir(target))()
})
