import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { COUNTER_FLUSH_MS } from '../../server/store/sql/pglite.ts'
import { type ServerProcess, startServer } from '../support/server-process.ts'

// The embedded store counts rate limits in memory and writes them every COUNTER_FLUSH_MS: a kill -9 loses at most
// that much counting. Here: counts older than that survive a kill -9 and a restart.

const servers: ServerProcess[] = []
let dataDir: string | undefined
afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => {})
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

test('rate-limit counts written before a kill -9 still limit after the restart', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-counters-kill-'))
  await writeFile(join(dataDir, 'docent.config.json'), JSON.stringify({ limits: { docsIpPerHour: 5 } }))
  const env = {
    DOCENT_DATA_DIR: dataDir,
    DOCENT_CONFIG: join(dataDir, 'docent.config.json'),
    DOCENT_STORE: 'pglite',
    DOCENT_WORKER: 'false',
  }
  const search = (server: ServerProcess) =>
    fetch(`${server.url}/discovery/v1/search/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'install the SDK' }),
    })
  const first = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(first)
  const statuses = []
  for (let i = 0; i < 4; i++) statuses.push((await search(first)).status)
  expect(statuses).toEqual([200, 200, 200, 200])
  // Past one flush of the counters, then no chance to write anything more.
  await new Promise((resolve) => setTimeout(resolve, COUNTER_FLUSH_MS * 2))
  await first.kill()

  const second = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(second)
  const fifth = await search(second)
  expect(fifth.status).toBe(200)
  expect(fifth.headers.get('ratelimit-remaining')).toBe('0')
  expect((await search(second)).status).toBe(429)
}, 240_000)
