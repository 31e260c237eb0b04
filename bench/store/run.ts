// Store figures: PGlite open time (fresh data directory, which runs initdb, vs an existing one), and throughput of
// the hot operations (a request's admission, run claim cycle, thread writes) on PGlite, the default store, and on a
// PostgreSQL server (DATABASE_URL, or a throwaway cluster from Debian's binaries). Judged by two ratios (issue 15):
// PGlite admits at ≥ 0.9× the memory store's rate (no database round trip per request), and thread writes batched as
// concurrent answers batch them carry ≥ 3× the messages per second of one write per message.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryStore } from '../../server/store/memory.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { startPostgres } from '../../tests/support/postgres.ts'
import { fmt, reportTarget } from '../support.ts'

const ms = (t0: number) => `${fmt(performance.now() - t0, 0)} ms`

async function timed(label: string, count: number, op: (i: number) => Promise<unknown>, concurrency = 1): Promise<number> {
  const t0 = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await op(next++)
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  console.log(`  ${label}: ${fmt(count / seconds, 0)} ops/s (${count} ops, concurrency ${concurrency})`)
  return count / seconds
}

const admission = (store: Store, expires: Date) => (i: number) =>
  store.admit(
    [`bench:key:${i % 10}`, 'bench:org', `bench:ip:${i % 100}`].map((key) => ({ key, limit: 1_000_000, expiresAt: expires })),
    new Date(),
  )

const threadWrite = (n: number) => {
  const at = new Date()
  const id = `bench-${crypto.randomUUID()}-${n}`
  return {
    thread: { id, projectId: 'bench', fp: 'anonymous', createdAt: at, updatedAt: at, messageCount: 0 },
    messages: [{ id: `msg-${n}`, threadId: id, role: 'user' as const, content: 'How do I install the JavaScript SDK?', createdAt: at }],
    at,
  }
}

/** The two ratios the store is judged by, on the given store against the memory store. */
async function judged(store: Store) {
  const expires = new Date(Date.now() + 3_600_000)
  const embedded = store.kind === 'pglite'
  const memory = new MemoryStore()
  // On PostgreSQL an admission is one statement by design (exact across instances): only the embedded store is judged.
  const memoryAdmits = embedded ? await timed('admit, memory store (reference)', 20_000, admission(memory, expires)) : 0
  const storeAdmits = embedded ? await timed(`admit, ${store.kind}`, 20_000, admission(store, expires)) : 0
  const single = await timed(`saveThreads, one message per write (${store.kind})`, 300, (i) => store.saveThreads([threadWrite(i)]))
  const batched =
    16 *
    (await timed(`saveThreads, 16 messages per write (${store.kind}; writes/s)`, 100, (i) =>
      store.saveThreads(Array.from({ length: 16 }, (_, j) => threadWrite(i * 16 + j))),
    ))
  const admitRatio = storeAdmits / memoryAdmits
  const batchRatio = batched / single
  if (embedded) {
    reportTarget(`${store.kind} / memory store admissions`, `${fmt(admitRatio, 2)}×`, '≥ 0.9×', admitRatio >= 0.9)
  }
  reportTarget(`${store.kind} batched / single thread writes`, `${fmt(batchRatio, 1)}×`, '≥ 3×', batchRatio >= 3)
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
  await judged(store)
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
    await judged(store)
    await store.close()
  } finally {
    await server.stop()
  }
}
