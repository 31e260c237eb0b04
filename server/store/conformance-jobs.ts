import { expect } from 'vitest'
import { sampleJob, type SuiteApi, uid } from './conformance-fixtures.ts'
import type { Store } from './types.ts'

/** Jobs, their events and the agent's run queue (claims, leases, retries), as every Store must keep them. */
export function describeJobsConformance(open: () => Promise<Store>, test: SuiteApi['test']) {
  test('jobs: insert, get within project only, conditional update, newest-first pages', async () => {
    const store = await open()
    const projectId = uid('project')
    const jobs = [0, 1, 2, 3, 4].map((i) => sampleJob({ projectId, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) }))
    for (const job of jobs) await store.insertJob(job)
    expect(await store.getJob(projectId, jobs[0]!.id)).toEqual(jobs[0])
    expect(await store.getJob('other-project', jobs[0]!.id)).toBeNull()

    const updated = await store.updateJob(jobs[0]!.id, {
      status: 'completed',
      pr: { number: '7', url: 'https://x/7' },
      conversation: [{ role: 'user', content: 'hi' }],
    })
    expect(updated).toMatchObject({
      status: 'completed',
      pr: { number: '7', url: 'https://x/7' },
      conversation: [{ role: 'user', content: 'hi' }],
    })
    expect(await store.updateJob(jobs[0]!.id, { status: 'failed' }, { ifStatusIn: ['active'] })).toBeNull()
    expect((await store.getJob(projectId, jobs[0]!.id))?.status).toBe('completed')
    expect(await store.updateJob('missing', { status: 'failed' })).toBeNull()

    const first = await store.listJobs(projectId, { limit: 2 })
    expect(first.items.map((j) => j.id)).toEqual([jobs[4]!.id, jobs[3]!.id])
    const second = await store.listJobs(projectId, { limit: 2, cursor: first.nextCursor! })
    expect(second.items.map((j) => j.id)).toEqual([jobs[2]!.id, jobs[1]!.id])
    const third = await store.listJobs(projectId, { limit: 2, cursor: second.nextCursor! })
    expect(third.items.map((j) => j.id)).toEqual([jobs[0]!.id])
    expect(third.nextCursor).toBeNull()
  })

  test('job events keep their order', async () => {
    const store = await open()
    const jobId = uid('job')
    for (let i = 0; i < 5; i++) {
      await store.appendJobEvent(jobId, {
        at: new Date().toISOString(),
        type: 'file.read',
        message: `read ${i}`,
        data: { path: `p${i}.mdx` },
      })
    }
    const events = await store.listJobEvents(jobId)
    expect(events.map((e) => e.message)).toEqual(['read 0', 'read 1', 'read 2', 'read 3', 'read 4'])
    expect(events[2]!.data).toEqual({ path: 'p2.mdx' })
    expect((await store.listJobEvents(jobId, { after: 3 })).map((e) => e.message)).toEqual(['read 3', 'read 4'])
    expect(await store.listJobEvents(jobId, { after: 5 })).toEqual([])
    expect((await store.listJobEvents(jobId, { after: 0 })).length).toBe(5)
  })

  test('runs: per-job order, one claim each, leases, retry after expiry, cancel', async () => {
    const store = await open()
    // Runs left by other tests on a shared instance must not be claimed here: use a far-past clock.
    const job = sampleJob()
    await store.insertJob(job)
    const t0 = new Date(Date.now() + 1000 * 60 * 60 * 24 * 365 * 50)
    const mk = (i: number) =>
      store.enqueueRun({
        id: uid('run'),
        jobId: job.id,
        projectId: job.projectId,
        prompt: `p${i}`,
        createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, i)),
      })
    const r1 = await mk(1)
    const r2 = await mk(2)
    expect([r1.seq, r2.seq]).toEqual([1, 2])
    expect(r1.status).toBe('queued')
    expect(await store.countOpenRuns(job.id)).toBe(2)

    const claimed = await claimOwn(store, job.id, 'w1', 60_000, t0)
    expect(claimed?.id).toBe(r1.id)
    expect(claimed?.attempts).toBe(1)
    // The second run waits for the first.
    expect(await claimOwn(store, job.id, 'w2', 60_000, t0)).toBeNull()
    expect(await store.renewLease(r1.id, 'w2', 60_000, t0)).toBe(false)
    expect(await store.renewLease(r1.id, 'w1', 60_000, t0)).toBe(true)

    // Lease expiry: another worker takes the same run over, as a second attempt.
    const later = new Date(t0.getTime() + 120_000)
    const retaken = await claimOwn(store, job.id, 'w2', 60_000, later)
    expect(retaken?.id).toBe(r1.id)
    expect(retaken?.attempts).toBe(2)
    expect(await store.finishRun(r1.id, 'w1', 'done')).toBe(false)
    expect(await store.finishRun(r1.id, 'w2', 'done')).toBe(true)

    const next = await claimOwn(store, job.id, 'w1', 60_000, later)
    expect(next?.id).toBe(r2.id)
    expect(await store.cancelRuns(job.id)).toBe(1)
    expect(await store.renewLease(r2.id, 'w1', 60_000, later)).toBe(false)
    expect(await store.countOpenRuns(job.id)).toBe(0)
    expect((await store.listRuns(job.id)).map((r) => r.status)).toEqual(['done', 'cancelled'])
  })

  test('runs: concurrent claims hand each run to one worker', async () => {
    const store = await open()
    const jobs = [sampleJob(), sampleJob(), sampleJob()]
    const now = new Date(Date.now() + 1000 * 60 * 60 * 24 * 365 * 60)
    const ids = new Set<string>()
    for (const job of jobs) {
      await store.insertJob(job)
      const run = await store.enqueueRun({
        id: uid('run'),
        jobId: job.id,
        projectId: job.projectId,
        prompt: 'x',
        createdAt: new Date(Date.UTC(2000, 0, 1)),
      })
      ids.add(run.id)
    }
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => drainOwn(store, ids, `w${i}`, now)))
    const claimed = claims.flat()
    expect(claimed.sort()).toEqual([...ids].sort())
  })

  test('runs: enqueues racing on one job get distinct consecutive seq numbers', async () => {
    const store = await open()
    const job = sampleJob()
    await store.insertJob(job)
    // Far-past createdAt and finished at once, so no other test of a shared store can claim them.
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.enqueueRun({
          id: uid('run'),
          jobId: job.id,
          projectId: job.projectId,
          prompt: `p${i}`,
          createdAt: new Date(Date.UTC(2002, 0, 1)),
        }),
      ),
    )
    expect(runs.map((run) => run.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    expect((await store.listRuns(job.id)).map((run) => run.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
    expect(await store.cancelRuns(job.id)).toBe(10)
  })
}

/** Claims until the given run ids are exhausted, ignoring runs of other tests sharing the store. */
async function claimOwn(store: Store, jobId: string, owner: string, leaseMs: number, now: Date) {
  const run = await store.claimRun({ owner, leaseMs, now })
  if (run && run.jobId !== jobId) throw new Error(`claimed a run of another test: ${run.jobId}`)
  return run
}

async function drainOwn(store: Store, ids: Set<string>, owner: string, now: Date) {
  const mine: string[] = []
  for (;;) {
    const run = await store.claimRun({ owner, leaseMs: 60_000, now })
    if (!run) return mine
    if (ids.has(run.id)) mine.push(run.id)
    await store.finishRun(run.id, owner, 'done')
  }
}
