import type { DocentContext } from '../context.ts'
import { assignPendingSignals } from './gaps/assign.ts'
import { type GapLifecycle, gapLifecycle } from './gaps/lifecycle.ts'
import { Recorder } from './recorder.ts'

/** How often old analytics rows are purged (and once soon after start). */
const PURGE_EVERY_MS = 60 * 60 * 1000
const FIRST_PURGE_MS = 60 * 1000

/**
 * Analytics of this server: the recorder the answer, search, MCP, events and feedback routes feed; gaps made of the
 * unanswered questions; background work (retention). Built once in `createDocent`, on the context as `analytics`.
 */
export interface Analytics {
  readonly recorder: Recorder
  /** The way of gaps' fixes to fixed (merges, webhooks, polls and verification feed it). */
  readonly gaps: GapLifecycle
  /** Stores what is queued and puts new unanswered questions into gaps: the API calls it before reading. */
  flush(): Promise<void>
  /** Runs `task` in the background, logged if it fails, awaited by `idle()` and `stop()`. */
  track(name: string, task: () => Promise<unknown>): Promise<void>
  /** Resolves when nothing is queued or running in the background (tests, benchmarks). */
  idle(): Promise<void>
  /** Starts the background work of a server that runs it (`worker`): retention, the gap fixes' progress. */
  start(): void
  stop(): Promise<void>
}

/** Built after the rest of the context, which it reads lazily (the gap loop needs the agent's jobs and hosts). */
export function createAnalytics(ctx: DocentContext): Analytics {
  const { log } = ctx
  const assigning = new Map<string, Promise<void>>()
  const tasks = new Set<Promise<unknown>>()
  const stops: Array<() => void> = []

  /** One assignment at a time per project (a second request waits for the running one, then runs once more). */
  const assign = (projectId: string): Promise<void> => {
    const previous = assigning.get(projectId) ?? Promise.resolve()
    const next = previous
      .then(() => assignPendingSignals(ctx, projectId))
      .then(
        () => undefined,
        (error: unknown) => log.error('gap assignment failed', { project: projectId, error: String(error) }),
      )
      .finally(() => {
        if (assigning.get(projectId) === next) assigning.delete(projectId)
      })
    assigning.set(projectId, next)
    return next
  }

  const recorder = new Recorder({
    store: ctx.store,
    search: ctx.search,
    log,
    now: ctx.now,
    ids: ctx.ids,
    enabled: ctx.config.analytics.enabled,
    onSignals: async (projectIds) => {
      await Promise.all(projectIds.map(assign))
    },
  })

  const track = (name: string, task: () => Promise<unknown>): Promise<void> => {
    const running: Promise<void> = task()
      .then(
        () => undefined,
        (error: unknown) => log.error(`${name} failed`, { error: String(error) }),
      )
      .finally(() => tasks.delete(running))
    tasks.add(running)
    return running
  }

  const purge = () =>
    track('analytics retention', async () => {
      const before = new Date(ctx.now().getTime() - ctx.config.analytics.retentionDays * 24 * 60 * 60 * 1000)
      const deleted = await ctx.store.purgeAnalytics(before)
      if (deleted > 0) log.info('analytics retention: old rows purged', { deleted, before: before.toISOString() })
    })

  const analytics: Analytics = {
    recorder,
    gaps: gapLifecycle(ctx),
    async flush() {
      await recorder.flush()
      await Promise.all(assigning.values())
    },
    track,
    async idle() {
      for (;;) {
        await analytics.flush()
        if (tasks.size === 0) return
        await Promise.all(tasks)
      }
    },
    start() {
      if (stops.length > 0) return
      const first = setTimeout(purge, FIRST_PURGE_MS)
      const every = setInterval(purge, PURGE_EVERY_MS)
      stops.push(
        () => clearTimeout(first),
        () => clearInterval(every),
        analytics.gaps.start(),
      )
    },
    async stop() {
      for (const stop of stops.splice(0)) stop()
      await analytics.idle()
    },
  }
  return analytics
}
