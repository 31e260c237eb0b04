import { DocentError } from '../../shared/errors.ts'
import type { DocentContext } from '../context.ts'
import type { JobRecord, PullRequestRef, RunRecord } from '../store/types.ts'
import { errorMessage, jobEvents, runSecrets } from './events.ts'
import { failOrphanedJobs } from './orphans.ts'

/**
 * What a finished run changes on its job. `error` set: the run ended without doing its work (step limit, or the model
 * could not): the job fails with it, and keeps what the run did (branch, PR, conversation) for a follow-up.
 */
export type RunResult = Partial<Pick<JobRecord, 'pr' | 'branch' | 'conversation'>> & {
  error?: string
  /** What the run did, or why it changed nothing, for whoever asked for it (an automation's run history). */
  note?: string
}

/** How a run ended, for `onRunEnded`: told once per run the worker ends (not for runs another instance takes over). */
export interface RunOutcome {
  status: 'done' | 'failed'
  error: string | null
  /** The pull request this run opened or updated (none when it changed nothing, or failed). */
  pr: PullRequestRef | null
  note: string | null
}

/** Carries out one run; throws to fail it. `signal` aborts on archive, lease loss, time limit or shutdown. */
export type ExecuteRun = (run: RunRecord, job: JobRecord, signal: AbortSignal) => Promise<RunResult>

export interface WorkerOptions {
  execute: ExecuteRun
  /** How long a claim holds without renewal; a killed server's runs are retried after it. */
  leaseMs?: number
  /** Idle poll interval (runs enqueued by this process wake the worker at once). */
  pollMs?: number
  /** Runs executed at the same time (runs of one job always go one after another). */
  concurrency?: number
  /**
   * Attempts per run that may end without a word (a killed or crashed server, its lease left to expire): the first,
   * plus one retry. A clean stop (run.interrupted) does not count.
   */
  maxAttempts?: number
  /** How often to fail active jobs left with no run at all (default: every 5 minutes, and at start). */
  orphanCheckMs?: number
  /** Called after the worker ended a run (its job updated); a failure here is logged, never the run's. */
  onRunEnded?: (run: RunRecord, outcome: RunOutcome) => Promise<void>
}

export type RunAbortReason = 'cancelled' | 'lease-lost' | 'time-limit' | 'stopping'

/** Why a run's signal aborted: `data.reason`, as isomorphic-git's PushRejectedError carries its reason. */
export class RunAbort extends DocentError<'run_aborted'> {
  override name = 'RunAbort'
  declare readonly data: { reason: RunAbortReason }
  constructor(reason: RunAbortReason, message: string) {
    super('run_aborted', message, { reason })
  }
}

export interface Worker {
  start(): void
  /** Stops claiming and aborts runs in progress, releasing their leases: the next start or another instance resumes them. */
  stop(): Promise<void>
  /** Resolves when no run is in progress or claimable right now (tests). */
  idle(): Promise<void>
}

/**
 * Claims runs from the store's queue with a lease, renews the lease while working, and ends every run it claims
 * (done or failed) so no job stays active. A run whose earlier claim expired (server killed) is retried once.
 */
export function createWorker(ctx: DocentContext, options: WorkerOptions): Worker {
  const leaseMs = options.leaseMs ?? 30_000
  const pollMs = options.pollMs ?? 1_000
  const concurrency = options.concurrency ?? 2
  const maxAttempts = options.maxAttempts ?? 2
  const owner = ctx.ids('worker')
  const secrets = runSecrets(ctx)
  const running = new Map<string, { jobId: string; controller: AbortController; done: Promise<void> }>()
  let stopped = true
  let timer: ReturnType<typeof setTimeout> | undefined
  let pumping: Promise<void> | null = null
  let again = false
  let unlisten = () => {}
  let orphanTimer: ReturnType<typeof setInterval> | undefined
  const orphanCheckMs = options.orphanCheckMs ?? 5 * 60_000
  let orphanCheck: Promise<unknown> | null = null
  const checkOrphans = () => {
    if (orphanCheck || stopped) return
    orphanCheck = failOrphanedJobs(ctx, Math.max(2 * leaseMs, 60_000))
      .catch((error) => ctx.log.warn('agent worker: orphaned job check failed', { error: errorMessage(error) }))
      .finally(() => (orphanCheck = null))
  }
  const idleWaiters: Array<() => void> = []

  function schedule(ms: number): void {
    if (stopped) return
    clearTimeout(timer)
    timer = setTimeout(() => void pump(), ms)
  }

  /** Claims while there is room; one pump at a time, re-run when woken meanwhile. */
  function pump(): Promise<void> {
    if (pumping) {
      again = true
      return pumping
    }
    pumping = (async () => {
      do {
        again = false
        while (!stopped && running.size < concurrency) {
          let run: RunRecord | null
          try {
            run = await ctx.store.claimRun({ owner, leaseMs, now: ctx.now() })
          } catch (error) {
            ctx.log.error('agent worker: claim failed', { error: errorMessage(error) })
            run = null
          }
          if (!run) break
          // Our own run, reclaimed because a stalled event loop let its lease lapse: it is still ours and running.
          if (running.has(run.id)) continue
          start(run)
        }
      } while (again && !stopped)
    })().finally(() => {
      pumping = null
      if (running.size === 0) {
        for (const resolve of idleWaiters.splice(0)) resolve()
      }
      schedule(pollMs)
    })
    return pumping
  }

  function start(run: RunRecord): void {
    const controller = new AbortController()
    const done = handle(run, controller)
      .catch((error) => ctx.log.error('agent worker: run handling failed', { runId: run.id, error: errorMessage(error) }))
      .finally(() => {
        running.delete(run.id)
        void pump()
      })
    running.set(run.id, { jobId: run.jobId, controller, done })
  }

  async function handle(run: RunRecord, controller: AbortController): Promise<void> {
    const events = jobEvents(ctx.store, run.jobId, ctx.now, secrets)
    const job = await ctx.store.getJob(run.projectId, run.jobId)
    if (!job || job.status === 'archived') {
      const error = job ? 'the job was archived' : 'the job no longer exists'
      if (await ctx.store.finishRun(run.id, owner, 'failed', error)) await ended(run, { status: 'failed', error, pr: null, note: null })
      return
    }
    // A clean stop (shutdown, a rolling deploy) said so in a run.interrupted event and released its lease: it is no
    // failed attempt. Only attempts that ended without a word (kill -9, a crash, a lost host) count toward the limit.
    const earlier = run.attempts > 1 ? (await ctx.store.listJobEvents(run.jobId)).filter((event) => event.data?.runId === run.id) : []
    const cleanStops = earlier.filter((event) => event.type === 'run.interrupted').length
    const crashes = run.attempts - 1 - cleanStops
    if (crashes >= maxAttempts) {
      const error = `the run was interrupted ${crashes} times (the server stopped or crashed during the run); giving up`
      await failJob(run, error)
      await ctx.store.finishRun(run.id, owner, 'failed', error)
      await events.add('run.failed', error, { runId: run.id, attempts: run.attempts })
      await reactivateIfQueued(run.jobId)
      await ended(run, { status: 'failed', error, pr: null, note: null })
      return
    }
    if (run.attempts > 1) {
      const stoppedCleanly = earlier.filter((event) => event.type !== 'run.retried').at(-1)?.type === 'run.interrupted'
      const why = stoppedCleanly
        ? 'the server stopped during the previous attempt'
        : 'the previous attempt was interrupted (its lease expired)'
      await events.add('run.retried', `${why}; retrying`, {
        runId: run.id,
        attempt: run.attempts,
      })
    }
    const active =
      (await ctx.store.updateJob(
        run.jobId,
        { status: 'active', updatedAt: ctx.now() },
        {
          ifStatusIn: ['active', 'completed', 'failed'],
        },
      )) ?? job

    const renewEvery = Math.max(50, Math.floor(leaseMs / 3))
    let renewing: Promise<unknown> = Promise.resolve()
    const renewal = setInterval(() => {
      renewing = ctx.store.renewLease(run.id, owner, leaseMs, ctx.now()).then(
        (held) => {
          if (!held) controller.abort(new RunAbort('lease-lost', 'the run was cancelled or taken over'))
        },
        (error) => ctx.log.warn('agent worker: lease renewal failed', { runId: run.id, error: errorMessage(error) }),
      )
    }, renewEvery)
    const seconds = ctx.config.limits.agentRunSeconds
    const deadline = setTimeout(
      () => controller.abort(new RunAbort('time-limit', `the run exceeded its time limit of ${seconds} s`)),
      seconds * 1000,
    )

    await events.add('run.started', run.attempts > 1 ? `run ${run.seq} started (attempt ${run.attempts})` : `run ${run.seq} started`, {
      runId: run.id,
      seq: run.seq,
    })
    try {
      const result = await options.execute(run, active, controller.signal)
      controller.signal.throwIfAborted()
      // A worker that lost its lease must not write over the run's new owner.
      if (!(await ctx.store.renewLease(run.id, owner, leaseMs, ctx.now()))) {
        throw new RunAbort('lease-lost', 'the run was cancelled or taken over')
      }
      const othersQueued = (await ctx.store.countOpenRuns(run.jobId)) > 1
      const { error = null, note = null, ...changes } = result
      // The run's last event is written before the job leaves `active`: a job's event stream ends when it sees the job
      // done, and a watcher on another instance that read the status between the two writes lost the event.
      const prLink = result.pr?.url ?? active.pr?.url ?? null
      if (error) await events.add('run.failed', `run ${run.seq} did not finish: ${error}`, { runId: run.id, prLink })
      else await events.add('run.finished', `run ${run.seq} finished`, { runId: run.id, prLink })
      await ctx.store.updateJob(
        run.jobId,
        { ...changes, status: othersQueued ? 'active' : error ? 'failed' : 'completed', error, updatedAt: ctx.now() },
        { ifStatusIn: ['active'] },
      )
      await ctx.store.finishRun(run.id, owner, error ? 'failed' : 'done', error ?? undefined)
      await reactivateIfQueued(run.jobId)
      await ended(run, { status: error ? 'failed' : 'done', error, pr: result.pr ?? null, note })
    } catch (thrown) {
      const abort = controller.signal.aborted ? controller.signal.reason : thrown
      if (abort instanceof RunAbort && abort.data.reason !== 'time-limit') {
        // Stopping: the lease expires and the run is retried. Cancelled: archiving said so. Lease lost: cancelled by
        // another instance, or another worker owns the run now.
        if (abort.data.reason === 'lease-lost') {
          await events.add('run.cancelled', `run ${run.seq} stopped: ${abort.message}`, { runId: run.id })
        }
        if (abort.data.reason === 'stopping') {
          // The lease ends now, not leaseMs later: the next start (or another instance) takes the run up at once,
          // where it waited out the lease, the job showing active and idle meanwhile.
          // A renewal still on its way would set the lease again after this release: it lands first.
          clearInterval(renewal)
          await renewing
          await ctx.store.renewLease(run.id, owner, 0, ctx.now()).catch(() => false)
          await events.add('run.interrupted', `run ${run.seq} stopped: the server is stopping; it runs again at the next start`, {
            runId: run.id,
          })
        }
        return
      }
      const error = errorMessage(abort, secrets)
      await events.add('run.failed', `run ${run.seq} failed: ${error}`, { runId: run.id })
      await failJob(run, error)
      await ctx.store.finishRun(run.id, owner, 'failed', error)
      await reactivateIfQueued(run.jobId)
      await ended(run, { status: 'failed', error, pr: null, note: null })
    } finally {
      clearInterval(renewal)
      clearTimeout(deadline)
    }
  }

  async function ended(run: RunRecord, outcome: RunOutcome): Promise<void> {
    if (!options.onRunEnded) return
    await options
      .onRunEnded(run, outcome)
      .catch((error) => ctx.log.warn('agent worker: run-ended hook failed', { runId: run.id, error: errorMessage(error) }))
  }

  async function failJob(run: RunRecord, error: string): Promise<void> {
    await ctx.store.updateJob(run.jobId, { status: 'failed', error, updatedAt: ctx.now() }, { ifStatusIn: ['active'] })
  }

  /** A follow-up queued while this run ended keeps (or makes) the job active. */
  async function reactivateIfQueued(jobId: string): Promise<void> {
    if ((await ctx.store.countOpenRuns(jobId)) > 0) {
      await ctx.store.updateJob(jobId, { status: 'active', error: null, updatedAt: ctx.now() }, { ifStatusIn: ['completed', 'failed'] })
    }
  }

  return {
    start() {
      if (!stopped) return
      stopped = false
      unlisten = ctx.work.listen({
        wake: () => void pump(),
        cancel: (jobId) => {
          for (const entry of running.values()) {
            if (entry.jobId === jobId) entry.controller.abort(new RunAbort('cancelled', 'the job was archived'))
          }
        },
      })
      void pump()
      checkOrphans()
      orphanTimer = setInterval(checkOrphans, orphanCheckMs)
    },
    async stop() {
      stopped = true
      clearTimeout(timer)
      clearInterval(orphanTimer)
      unlisten()
      for (const entry of running.values()) entry.controller.abort(new RunAbort('stopping', 'the server is stopping'))
      await pumping
      await orphanCheck
      await Promise.all([...running.values()].map((entry) => entry.done))
      for (const resolve of idleWaiters.splice(0)) resolve()
    },
    idle() {
      if (running.size === 0 && !pumping) return Promise.resolve()
      return new Promise((resolve) => idleWaiters.push(resolve))
    },
  }
}
