import { afterEach, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { createWorker, type ExecuteRun, type Worker } from '../../server/agent/worker.ts'
import type { DocentContext } from '../../server/context.ts'
import type { Store } from '../../server/store/types.ts'
import { bearer, json, testDocent } from '../support/app.ts'

// A clean stop (SIGTERM, a rolling deploy) is not a failed attempt: it says so (run.interrupted) and releases the
// run's lease, so the next start resumes the run at once however many deploys in a row it meets. A run whose server
// died without a word still counts (server/agent/worker.test.ts).

const workers: Worker[] = []
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop()
})

/** A run that waits until its worker stops it, as a run waits on its model; `started` counts its attempts. */
function waitingRun() {
  const state = { started: 0 }
  const execute: ExecuteRun = async (_run, _job, signal) => {
    state.started++
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
    throw signal.reason
  }
  return { state, execute }
}

async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('condition never held')
}

async function createJob(t: Awaited<ReturnType<typeof testDocent>>): Promise<AgentJob> {
  return (await (await t.app.request('/v2/agent/demo/job', json({ prompt: 'Rename Lumen' }, bearer(t.keys.admin)))).json()) as AgentJob
}

test('three clean stops in a row do not fail the run: each next worker resumes it, and it completes', async () => {
  const t = await testDocent()
  const waiting = waitingRun()
  const job = await createJob(t)
  for (let stop = 1; stop <= 3; stop++) {
    const worker = createWorker(t.docent.context, { execute: waiting.execute, leaseMs: 60_000, pollMs: 20 })
    workers.push(worker)
    worker.start()
    await until(() => waiting.state.started === stop)
    await worker.stop()
  }
  const last = createWorker(t.docent.context, { execute: async () => ({}), leaseMs: 60_000, pollMs: 20 })
  workers.push(last)
  last.start()
  await until(async () => (await t.store.getJob('demo', job.id))?.status !== 'active')
  const done = await t.store.getJob('demo', job.id)
  expect(done).toMatchObject({ status: 'completed', error: null })
  const events = (await t.store.listJobEvents(job.id)).map((event) => `${event.type}: ${event.message}`)
  expect(events.filter((event) => event.startsWith('run.interrupted'))).toHaveLength(3)
  expect(events).toContain('run.retried: the server stopped during the previous attempt; retrying')
  expect(events.filter((event) => event.startsWith('run.failed'))).toEqual([])
})

test('a lease renewal still on its way when the worker stops does not set the lease again after the release', async () => {
  const t = await testDocent()
  // Renewals that take 250 ms to land, every 100 ms (a lease of 300 ms): one is always on its way.
  const store = Object.create(t.store) as Store
  store.renewLease = async (runId, owner, leaseMs, now) => {
    if (leaseMs > 0) await new Promise((resolve) => setTimeout(resolve, 250))
    return t.store.renewLease(runId, owner, leaseMs, now)
  }
  const ctx: DocentContext = { ...t.docent.context, store }
  const waiting = waitingRun()
  const job = await createJob(t)
  const worker = createWorker(ctx, { execute: waiting.execute, leaseMs: 300, pollMs: 20 })
  workers.push(worker)
  worker.start()
  await until(() => waiting.state.started === 1)
  await new Promise((resolve) => setTimeout(resolve, 350))
  await worker.stop()
  const stopped = Date.now()
  // Whatever was on its way has landed by now.
  await new Promise((resolve) => setTimeout(resolve, 400))
  const [run] = await t.store.listRuns(job.id)
  expect(run!.status).toBe('running')
  expect(run!.leaseExpiresAt!.getTime()).toBeLessThanOrEqual(stopped)
})
