// Store figures: PGlite open time (fresh data directory, which runs initdb, vs an existing one), and throughput of
// the hot operations (rate-limit counter, run claim cycle, thread append) on PGlite and on a PostgreSQL server
// (DATABASE_URL, or a throwaway cluster from Debian's binaries). Prints figures; asserts nothing about speed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { startPostgres } from '../../tests/support/postgres.ts'
import { fmt } from '../support.ts'

const ms = (t0: number) => `${fmt(performance.now() - t0, 0)} ms`

async function timed(label: string, count: number, op: (i: number) => Promise<unknown>, concurrency = 1) {
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await op(next++)
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  console.log(`  ${label}: ${fmt(count / seconds, 0)} ops/s (${count} ops, concurrency ${concurrency})`)
}

async function operations(store: Store, concurrency: number) {
  const expires = new Date(Date.now() + 3_600_000)
  // A request's admission: its three counters (key, organization, IP) checked and counted together.
  await timed(
    'admit (3 counters)',
    2000,
    (i) =>
      store.admit(
        [`bench:key:${i % 10}`, 'bench:org', `bench:ip:${i % 100}`].map((key) => ({ key, limit: 1_000_000, expiresAt: expires })),
        new Date(),
      ),
    concurrency,
  )
  const jobs = Array.from({ length: 20 }, (_, i) => `bench-job-${crypto.randomUUID()}-${i}`)
  await timed(
    'enqueueRun',
    500,
    (i) =>
      store.enqueueRun({ id: crypto.randomUUID(), jobId: jobs[i % jobs.length]!, projectId: 'bench', prompt: 'x', createdAt: new Date() }),
    concurrency,
  )
  const now = new Date(Date.now() + 60_000)
  await timed(
    'claimRun + finishRun',
    500,
    async (i) => {
      const run = await store.claimRun({ owner: `w${i}`, leaseMs: 60_000, now })
      if (run) await store.finishRun(run.id, `w${i}`, 'done')
    },
    concurrency,
  )
  const thread = { id: crypto.randomUUID(), projectId: 'bench', fp: 'x', createdAt: new Date(), updatedAt: new Date(), messageCount: 0 }
  await store.createThread(thread)
  await timed(
    'appendMessages (question + answer)',
    500,
    () => {
      const at = new Date()
      return store.appendMessages(
        thread.id,
        [
          { id: crypto.randomUUID(), threadId: thread.id, role: 'user', content: 'How do I install?', createdAt: at },
          {
            id: crypto.randomUUID(),
            threadId: thread.id,
            role: 'assistant',
            content: 'Run npm install. '.repeat(40),
            sources: [{ title: 'Install', path: 'install', url: '/install' }],
            createdAt: at,
          },
        ],
        at,
      )
    },
    concurrency,
  )
}

console.log('PGlite (embedded, single process)')
const dir = mkdtempSync(join(tmpdir(), 'docent-bench-pglite-'))
try {
  let t0 = performance.now()
  let store = await openPgliteStore(join(dir, 'pglite'))
  console.log(`  open, fresh data directory (initdb + migrations): ${ms(t0)}`)
  await store.close()
  for (let i = 1; i <= 3; i++) {
    t0 = performance.now()
    store = await openPgliteStore(join(dir, 'pglite'))
    console.log(`  open, existing data directory (#${i}): ${ms(t0)}`)
    if (i < 3) await store.close()
  }
  await operations(store, 1)
  await operations(store, 8)
  await store.close()
} finally {
  rmSync(dir, { recursive: true, force: true })
}

console.log('PostgreSQL server')
const t0 = performance.now()
const server = await startPostgres()
if ('skip' in server) {
  console.log(`  skipped: ${server.skip}`)
} else {
  try {
    console.log(`  server ready (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'throwaway cluster: initdb + start'}): ${ms(t0)}`)
    const url = await server.createDatabase('docent_bench')
    let t1 = performance.now()
    const store = await openPostgresStore(url)
    console.log(`  open, empty database (migrations): ${ms(t1)}`)
    t1 = performance.now()
    const again = await openPostgresStore(url)
    console.log(`  open, migrated database: ${ms(t1)}`)
    await again.close()
    await operations(store, 1)
    await operations(store, 8)
    await store.close()
  } finally {
    await server.stop()
  }
}
