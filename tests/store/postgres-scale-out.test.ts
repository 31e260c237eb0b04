import postgres from 'postgres'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { sampleJob, sampleKey } from '../../server/store/conformance.ts'
import { KEY_CACHE_MS } from '../../server/store/sql/store.ts'
import { migrate, migrations } from '../../server/store/sql/migrations.ts'
import { openPostgresStore, postgresClient } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { startPostgres } from '../support/postgres.ts'

// Several server instances on one PostgreSQL: each is a store with its own connection pool, as separate processes are.
const server = await startPostgres()

if ('skip' in server) {
  describe('postgres scale-out', () => test.skip(server.skip, () => {}))
} else {
  const stores: Store[] = []
  const open = async (url: string, keyCacheMs?: number) => {
    const store = await openPostgresStore(url, { max: 6, keyCacheMs })
    stores.push(store)
    return store
  }
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => {})
    await server.stop()
  })

  describe('postgres scale-out', () => {
    test('two instances starting together run each migration once', async () => {
      const url = await server.createDatabase('docent_migrate')
      const pools = [postgres(url, { max: 2, onnotice: () => {} }), postgres(url, { max: 2, onnotice: () => {} })]
      try {
        const applied = await Promise.all(pools.map((sql) => migrate(postgresClient(sql))))
        const all = migrations.map((m) => m.version)
        expect([...applied].sort((a, b) => a.length - b.length)).toEqual([[], all])
        expect(await migrate(postgresClient(pools[0]!))).toEqual([])
        const rows = await pools[0]!.unsafe('SELECT version FROM docent_migrations ORDER BY version')
        expect(rows.map((row) => row.version)).toEqual(all)
      } finally {
        await Promise.all(pools.map((sql) => sql.end()))
      }
      // Opening stores together on a fresh database works the same way.
      const fresh = await server.createDatabase('docent_migrate')
      const [a, b] = await Promise.all([open(fresh), open(fresh)])
      await a!.insertKey({
        id: 'k1',
        hash: 'h1',
        kind: 'admin',
        organization: 'o',
        projectId: null,
        name: null,
        scope: 'write',
        last4: 'abcd',
        createdAt: new Date(),
        expiresAt: null,
        revokedAt: null,
      })
      expect((await b!.findKeyByHash('h1'))?.id).toBe('k1')
    })

    test('two instances draining one queue run each run exactly once, in order within a job', async () => {
      const url = await server.createDatabase('docent_claims')
      const [a, b] = await Promise.all([open(url), open(url)])
      const now = new Date('2030-01-01T00:00:00Z')
      const runsOf = new Map<string, string[]>()
      for (let j = 0; j < 40; j++) {
        const job = sampleJob()
        await a!.insertJob(job)
        const ids: string[] = []
        for (let k = 0; k < 1 + (j % 3); k++) {
          const run = await (k % 2 ? b! : a!).enqueueRun({
            id: `run-${j}-${k}`,
            jobId: job.id,
            projectId: job.projectId,
            prompt: `p${k}`,
            createdAt: new Date(Date.UTC(2029, 0, 1, 0, k, j)),
          })
          ids.push(run.id)
        }
        runsOf.set(job.id, ids)
      }
      const total = [...runsOf.values()].reduce((n, ids) => n + ids.length, 0)

      const claimed: string[] = []
      const holding = new Map<string, string>()
      const worker = async (store: Store, owner: string) => {
        for (;;) {
          const run = await store.claimRun({ owner, leaseMs: 60_000, now })
          if (!run) return
          // A later run of a job must never start while an earlier one is held.
          expect(holding.get(run.jobId)).toBeUndefined()
          holding.set(run.jobId, run.id)
          claimed.push(run.id)
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
          holding.delete(run.jobId)
          expect(await store.finishRun(run.id, owner, 'done')).toBe(true)
        }
      }
      await Promise.all(Array.from({ length: 16 }, (_, i) => worker(i % 2 ? b! : a!, `${i % 2 ? 'b' : 'a'}-${i}`)))

      expect(claimed).toHaveLength(total)
      expect(new Set(claimed).size).toBe(total)
      for (const [jobId, ids] of runsOf) {
        expect(claimed.filter((id) => ids.includes(id))).toEqual(ids)
        const runs = await b!.listRuns(jobId)
        expect(runs.map((run) => [run.status, run.attempts])).toEqual(ids.map(() => ['done', 1]))
      }
    })

    test('a run whose lease expired on one instance is taken over by another, and the first loses it', async () => {
      const url = await server.createDatabase('docent_leases')
      const [a, b] = await Promise.all([open(url), open(url)])
      const job = sampleJob()
      await a!.insertJob(job)
      const run = await a!.enqueueRun({
        id: 'run-lease',
        jobId: job.id,
        projectId: job.projectId,
        prompt: 'x',
        createdAt: new Date('2030-01-01T00:00:00Z'),
      })
      const t0 = new Date('2030-01-01T00:00:00Z')
      expect((await a!.claimRun({ owner: 'a', leaseMs: 1000, now: t0 }))?.id).toBe(run.id)
      expect(await b!.claimRun({ owner: 'b', leaseMs: 1000, now: new Date(t0.getTime() + 500) })).toBeNull()
      expect(await a!.renewLease(run.id, 'a', 1000, new Date(t0.getTime() + 900))).toBe(true)
      expect(await b!.claimRun({ owner: 'b', leaseMs: 1000, now: new Date(t0.getTime() + 1500) })).toBeNull()
      const taken = await b!.claimRun({ owner: 'b', leaseMs: 1000, now: new Date(t0.getTime() + 2000) })
      expect(taken).toMatchObject({ id: run.id, attempts: 2, leaseOwner: 'b' })
      expect(await a!.renewLease(run.id, 'a', 1000, new Date(t0.getTime() + 2100))).toBe(false)
      expect(await a!.finishRun(run.id, 'a', 'done')).toBe(false)
      expect(await b!.finishRun(run.id, 'b', 'failed', 'boom')).toBe(true)
      expect((await a!.listRuns(job.id))[0]).toMatchObject({ status: 'failed', error: 'boom', attempts: 2 })
    })

    test('two instances seeding the same key from env at once both start, and one key is kept', async () => {
      const url = await server.createDatabase('docent_seed')
      const [a, b] = await Promise.all([open(url), open(url)])
      const key = (id: string) => ({
        id,
        hash: 'same-secret-hash',
        kind: 'admin' as const,
        organization: 'demo',
        projectId: null,
        name: 'from env',
        scope: 'write' as const,
        last4: 'abcd',
        createdAt: new Date(),
        expiresAt: null,
        revokedAt: null,
      })
      await Promise.all([a!.insertKey(key('k-a')), b!.insertKey(key('k-b'))])
      expect(await a!.listKeys('demo')).toHaveLength(1)
      expect(['k-a', 'k-b']).toContain((await b!.findKeyByHash('same-secret-hash'))?.id)
    })

    test('a key revoked on one instance is refused by the other within the key cache time; at once on its own', async () => {
      // The bound each instance gives a revocation made elsewhere (the default is KEY_CACHE_MS = 5 s; 400 ms here).
      expect(KEY_CACHE_MS).toBe(5_000)
      const url = await server.createDatabase('docent_key_cache')
      const [a, b] = await Promise.all([open(url, 400), open(url, 400)])
      const key = sampleKey()
      await a!.insertKey(key)
      expect((await b!.findKeyByHash(key.hash))?.revokedAt).toBeNull() // now cached on b
      const at = new Date()
      expect(await a!.revokeKey(key.id, at)).toBe(true)
      expect((await a!.findKeyByHash(key.hash))?.revokedAt).toEqual(at)
      await vi.waitFor(async () => expect((await b!.findKeyByHash(key.hash))?.revokedAt).toEqual(at), { timeout: 3_000, interval: 50 })
    })

    test('rate-limit admissions shared by two instances: exact limit, refusals count nowhere', async () => {
      const url = await server.createDatabase('docent_counters')
      const [a, b] = await Promise.all([open(url), open(url)])
      const expires = new Date(Date.now() + 60_000)
      const counters = [
        { key: 'key:month', limit: 70, expiresAt: expires },
        { key: 'org:hour', limit: 1000, expiresAt: expires },
      ]
      const results = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a! : b!).admit(counters, new Date())))
      const admitted = results.filter((r) => r.admitted)
      expect(admitted).toHaveLength(70)
      expect(admitted.map((r) => r.counts[0]).sort((x, y) => x! - y!)).toEqual(Array.from({ length: 70 }, (_, i) => i + 1))
      // The 30 refused requests did not count on the other counter either.
      expect(await a!.admit([counters[1]!], new Date())).toEqual({ admitted: true, counts: [71] })
    })
  })
}
