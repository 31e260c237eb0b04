import { afterEach, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { bearer, json, testDocent } from '../../tests/support/app.ts'
import type { RunRecord } from '../store/types.ts'
import { createWorker, type ExecuteRun, type Worker } from './worker.ts'

const workers: Worker[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop()
})

/** A promise with its resolve, to hold a run until the test lets it go. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

async function setup(execute: ExecuteRun, limits: Record<string, number> = {}) {
  const t = await testDocent(Object.keys(limits).length ? { limits } : {})
  const worker = createWorker(t.docent.context, { execute, leaseMs: 60_000, pollMs: 20 })
  workers.push(worker)
  const create = async (prompt = 'first') =>
    (await (await t.app.request('/v2/agent/demo/job', json({ prompt }, bearer(t.keys.admin)))).json()) as AgentJob
  const followUp = async (id: string, prompt: string) =>
    (await t.app.request(`/v2/agent/demo/job/${id}/message`, json({ prompt }, bearer(t.keys.admin)))).json() as Promise<AgentJob>
  const get = async (id: string) =>
    (await (await t.app.request(`/v2/agent/demo/job/${id}`, { headers: bearer(t.keys.admin) })).json()) as AgentJob
  const events = async (id: string) => (await t.store.listJobEvents(id)).map((e) => `${e.type}: ${e.message}`)
  return { ...t, worker, create, followUp, get, events }
}

/** Waits until `check` passes; the worker polls every 20 ms, so this settles quickly without timed assertions. */
async function eventually<T>(check: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 1000; i++) {
    const value = await check()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('condition never held')
}

describe('agent worker: durable runs from the store queue', () => {
  test('a run ends the job completed with its PR; prLink appears only then', async () => {
    const t = await setup(async (run) => ({ pr: { number: '1', url: `https://git.example/pr/${run.jobId}` }, branch: 'docent/x' }))
    const job = await t.create()
    t.worker.start()
    const done = await eventually(
      () => t.get(job.id),
      (j) => j.status !== 'active',
    )
    expect(done).toMatchObject({ status: 'completed', prLink: `https://git.example/pr/${job.id}`, error: null })
    expect((await t.store.listRuns(job.id)).map((r) => [r.status, r.attempts])).toEqual([['done', 1]])
    expect(await t.events(job.id)).toEqual([
      expect.stringMatching(/^message: job created/),
      'run.started: run 1 started',
      'run.finished: run 1 finished',
    ])
  })

  test('a run that throws ends the job failed with the error', async () => {
    const t = await setup(async () => {
      throw new Error('push refused: protected branch')
    })
    const job = await t.create()
    t.worker.start()
    const done = await eventually(
      () => t.get(job.id),
      (j) => j.status !== 'active',
    )
    expect(done).toMatchObject({ status: 'failed', error: 'push refused: protected branch', prLink: null })
    expect(await t.events(job.id)).toContain('run.failed: run 1 failed: push refused: protected branch')
  })

  test('follow-ups wait for the run in progress and run in order; the job stays active until the last ends', async () => {
    const order: string[] = []
    const gates = new Map<string, ReturnType<typeof gate>>()
    const started = new Map<string, ReturnType<typeof gate>>()
    for (const prompt of ['first', 'second', 'third']) {
      gates.set(prompt, gate())
      started.set(prompt, gate())
    }
    const t = await setup(async (run: RunRecord) => {
      order.push(`start ${run.prompt}`)
      started.get(run.prompt)!.open()
      await gates.get(run.prompt)!.opened
      order.push(`end ${run.prompt}`)
      return { pr: { number: '1', url: 'https://git.example/pr/1' }, conversation: [...order] }
    })
    const job = await t.create('first')
    t.worker.start()
    await started.get('first')!.opened
    expect((await t.followUp(job.id, 'second')).status).toBe('active')
    expect((await t.followUp(job.id, 'third')).prLink).toBeNull()
    gates.get('first')!.open()
    await started.get('second')!.opened
    // Between runs the PR exists but the job is active again, so prLink stays hidden.
    expect(await t.get(job.id)).toMatchObject({ status: 'active', prLink: null })
    gates.get('second')!.open()
    gates.get('third')!.open()
    const done = await eventually(
      () => t.get(job.id),
      (j) => j.status !== 'active',
    )
    expect(done).toMatchObject({ status: 'completed', prLink: 'https://git.example/pr/1' })
    expect(order).toEqual(['start first', 'end first', 'start second', 'end second', 'start third', 'end third'])
    expect((await t.store.listRuns(job.id)).map((r) => r.status)).toEqual(['done', 'done', 'done'])
  })

  test('archiving cancels the run in progress through its abort signal', async () => {
    const running = gate()
    let aborted: unknown = null
    const t = await setup(async (_run, _job, signal) => {
      running.open()
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))
      aborted = signal.reason
      throw signal.reason
    })
    const job = await t.create()
    t.worker.start()
    await running.opened
    const archived = await t.app.request(`/v2/agent/demo/job/${job.id}/archive`, json({}, bearer(t.keys.admin)))
    expect(await archived.json()).toMatchObject({ status: 'archived', prLink: null })
    await eventually(
      async () => aborted,
      (reason) => reason !== null,
    )
    expect(String(aborted)).toMatch(/archived/)
    await t.worker.idle()
    expect(await t.get(job.id)).toMatchObject({ status: 'archived', error: null })
    expect((await t.store.listRuns(job.id)).map((r) => r.status)).toEqual(['cancelled'])
  })

  test('a run whose lease expired (server killed) is retried once, then fails with a clear error', async () => {
    let executions = 0
    const t = await setup(async () => {
      executions++
      return { pr: { number: '1', url: 'https://git.example/pr/1' } }
    })
    // A worker that died mid-run: claimed with a lease that has already expired.
    const expired = (minutesAgo = 2) =>
      t.store.claimRun({ owner: 'dead-worker', leaseMs: 1, now: new Date(Date.now() - minutesAgo * 60_000) })
    const retried = await t.create('retried')
    expect((await expired())!.attempts).toBe(1)
    t.worker.start()
    expect(
      await eventually(
        () => t.get(retried.id),
        (j) => j.status !== 'active',
      ),
    ).toMatchObject({ status: 'completed' })
    expect(executions).toBe(1)
    expect(await t.events(retried.id)).toContain('run.retried: the previous attempt was interrupted (its lease expired); retrying')
    await t.worker.stop()

    const given = await t.create('twice')
    await expired(2)
    expect((await expired(1))!.attempts).toBe(2)
    t.worker.start()
    const failed = await eventually(
      () => t.get(given.id),
      (j) => j.status !== 'active',
    )
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/interrupted 2 times .*server stopped or crashed/)
    expect(executions).toBe(1)
    expect((await t.store.listRuns(given.id)).map((r) => [r.status, r.attempts])).toEqual([['failed', 3]])
  })

  test('a stop ends the run lease at once: the next worker takes the run up without waiting for the lease to run out', async () => {
    const running = gate()
    const t = await setup(async (_run, _job, signal) => {
      // The run waits until the stop aborts it, as a run waits on its model.
      running.open()
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
      throw signal.reason
    })
    const job = await t.create('interrupted')
    t.worker.start()
    await running.opened
    const stopped = new Date()
    await t.worker.stop()
    const [run] = await t.store.listRuns(job.id)
    expect(run!.status).toBe('running')
    expect(run!.leaseExpiresAt!.getTime()).toBeLessThanOrEqual(Date.now())
    expect(run!.leaseExpiresAt!.getTime()).toBeGreaterThanOrEqual(stopped.getTime() - 1000)
    expect(await t.events(job.id)).toContain('run.interrupted: run 1 stopped: the server is stopping; it runs again at the next start')
    // Its lease was 60 s: a new worker takes it up at once (eventually gives up after about 10 s).
    const next = createWorker(t.docent.context, {
      execute: async () => ({ pr: { number: '1', url: 'https://git.example/pr/1' } }),
      leaseMs: 60_000,
      pollMs: 20,
    })
    workers.push(next)
    next.start()
    expect(
      await eventually(
        () => t.get(job.id),
        (j) => j.status !== 'active',
      ),
    ).toMatchObject({ status: 'completed' })
  })

  test('a run past the time limit fails with the limit named', async () => {
    const t = await setup(
      (_run, _job, signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
      { agentRunSeconds: 1 },
    )
    const job = await t.create()
    t.worker.start()
    const done = await eventually(
      () => t.get(job.id),
      (j) => j.status !== 'active',
    )
    expect(done).toMatchObject({ status: 'failed', error: 'the run exceeded its time limit of 1 s' })
  })

  test('two workers on one store execute each run once', async () => {
    const executed: string[] = []
    const t = await setup(async (run) => {
      executed.push(run.id)
      await new Promise((resolve) => setTimeout(resolve, 5))
      return {}
    })
    const other = createWorker(t.docent.context, { execute: async (run) => (executed.push(run.id), {}), leaseMs: 60_000, pollMs: 20 })
    workers.push(other)
    const jobs = await Promise.all(Array.from({ length: 8 }, (_, i) => t.create(`job ${i}`)))
    t.worker.start()
    other.start()
    for (const job of jobs)
      await eventually(
        () => t.get(job.id),
        (j) => j.status === 'completed',
      )
    expect(executed).toHaveLength(8)
    expect(new Set(executed).size).toBe(8)
  })

  test('an active job with no run at all (process died between storing and queuing) is failed, not left active', async () => {
    const t = await setup(async () => ({}))
    const old = new Date(Date.now() - 10 * 60_000)
    const base = {
      projectId: 'demo',
      source: { repository: 'local:demo', ref: 'main' },
      model: 'offline-editor',
      branch: null,
      pr: null,
      error: null,
      conversation: [],
      archivedAt: null,
    }
    await t.store.insertJob({ ...base, id: 'orphanedJob00000000001', status: 'active', createdAt: old, updatedAt: old })
    await t.store.insertJob({ ...base, id: 'freshJob0000000000001', status: 'active', createdAt: new Date(), updatedAt: new Date() })
    t.worker.start()
    const failed = await eventually(
      () => t.get('orphanedJob00000000001'),
      (j) => j.status !== 'active',
    )
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/the run was lost/) })
    // A job just stored may be about to get its run: left alone.
    expect((await t.get('freshJob0000000000001')).status).toBe('active')
  })
})
