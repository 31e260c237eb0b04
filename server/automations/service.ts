import { errorMessage } from '../agent/events.ts'
import type { AgentServiceHooks } from '../agent/service.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { AutomationRecord } from '../store/types.ts'
import type { HostKind } from '../webhooks/dispatch.ts'
import { repositoryName, sameRepositoryUrl } from '../git/repository-url.ts'
import { isDeletedBranchHead, type HostEvent, type PullRequestEvent, type PushEvent } from '../webhooks/payloads.ts'
import type { WebhookScope } from '../webhooks/registry.ts'
import { definitionOf } from './catalog.ts'
import { automationsOf, commitAutomations, contentRevision, localRepositoryOf } from './content.ts'
import { createNotifier, eventBase, type Notifier } from './notify.ts'
import { analyticsReaderSignals, type ReaderSignals } from './readers/signals.ts'
import { dueSlot, parseSchedule } from './schedule.ts'
import { startAutomationRun } from './start-run.ts'

export interface AutomationServiceOptions {
  /** Gaps and feedback for "fill gaps" and "improve from feedback" (default: the analytics store's). */
  signals?: ReaderSignals
}

export interface AutomationService {
  /** The scheduler of this process: ticks on a timer, checks pull requests now and then, hears local pushes. */
  start(): void
  stop(): Promise<void>
  /**
   * One pass at `ctx.now()`: runs each due schedule slot once (across instances: the slot's claim), each moved docs
   * revision once per content automation. What the timer calls; tests call it with a controlled clock.
   */
  tick(): Promise<void>
  /** Reminds of pull requests waiting for review and announces merged ones (what the timer calls now and then). */
  checkPullRequests(): Promise<void>
  /** What the agent worker needs: automation runs' executor, and their end. */
  agentHooks: AgentServiceHooks
  notifier: Notifier
}

const DAY_MS = 86_400_000

export function createAutomationService(ctx: DocentContext, options: AutomationServiceOptions = {}): AutomationService {
  const signals = options.signals ?? analyticsReaderSignals(ctx)
  const notifier = createNotifier(ctx)
  const { tickMs, prCheckMs } = ctx.config.automationsWorker
  let timers: Array<ReturnType<typeof setInterval>> = []
  let unsubscribe: Array<() => void> = []
  let ticking: Promise<void> | null = null
  let checking: Promise<void> | null = null
  const contentChecks = new Map<string, Promise<number>>()
  // Docs reloads a push webhook started, per project: until one ends, the served docs are a revision behind the push.
  const reloads = new Map<string, Promise<unknown>>()
  let executor: Promise<typeof import('./executor.ts')> | undefined

  const failed = (what: string, fields: Record<string, unknown>) => (error: unknown) =>
    ctx.log.warn(`automations: ${what} failed`, { ...fields, error: errorMessage(error) })

  async function enabled(project: ProjectConfig): Promise<AutomationRecord[]> {
    return (await ctx.store.listAutomations(project.id)).filter((automation) => automation.enabled)
  }

  async function runDueSlot(project: ProjectConfig, automation: AutomationRecord, now: Date): Promise<void> {
    if (automation.trigger.kind !== 'schedule') return
    const schedule = parseSchedule(automation.trigger.cron, automation.trigger.timeZone)
    const after = new Date(
      Math.max(automation.scheduleFrom?.getTime() ?? automation.updatedAt.getTime(), automation.lastSlot?.getTime() ?? 0),
    )
    const due = dueSlot(schedule, after, now)
    if (!due) return
    const slot = due.slot.toISOString()
    const started = await startAutomationRun(ctx, {
      project,
      automation,
      reason: 'schedule',
      key: `schedule:${slot}`,
      context: { slot, ...(due.missed ? { missed: due.missed } : {}) },
    })
    if (started) ctx.log.info('automation run started', { project: project.id, automation: automation.id, slot, missed: due.missed })
    // Claimed here or by another instance: either way the slot is taken, and later ticks start after it.
    const fresh = await ctx.store.getAutomation(project.id, automation.id)
    if (fresh && (fresh.lastSlot?.getTime() ?? 0) < due.slot.getTime()) await ctx.store.putAutomation({ ...fresh, lastSlot: due.slot })
  }

  /** Starts each content automation once for a docs revision it has not acted on (or, for the one that made it, skips it). */
  function checkContent(project: ProjectConfig, known?: string, message?: string): Promise<number> {
    // One check per project at a time; a push heard meanwhile is seen by the next (the revision is re-read).
    const running = contentChecks.get(project.id)
    if (running) return running.catch(() => 0).then(() => checkContent(project, known, message))
    const check = (async () => {
      let runs = 0
      const automations = (await enabled(project)).filter((automation) => automation.trigger.kind === 'content')
      if (automations.length === 0) return 0
      // Read while a push's reload is under way, the served revision is the one before it: that is not a move (a run
      // on it would be a spurious one, after the push's own run).
      if (known === undefined) await reloads.get(project.id)
      const revision = known ?? (await contentRevision(ctx, project))
      if (!revision) return 0
      const madeBy = message !== undefined ? automationsOf(message) : await commitAutomations(ctx, project, revision)
      for (const automation of automations) {
        if (automation.contentRevision === revision) continue
        // Turned on before the docs could be read: this revision is where it starts from, not a move.
        if (automation.contentRevision !== null && !madeBy.includes(automation.id)) {
          const started = await startAutomationRun(ctx, {
            project,
            automation,
            reason: 'content',
            key: `content:${revision}`,
            context: { revision, previous: automation.contentRevision },
          }).catch(failed('content run', { project: project.id, automation: automation.id }))
          if (started) runs++
        }
        const fresh = await ctx.store.getAutomation(project.id, automation.id)
        if (fresh) await ctx.store.putAutomation({ ...fresh, contentRevision: revision })
      }
      return runs
    })().finally(() => contentChecks.delete(project.id))
    contentChecks.set(project.id, check)
    return check
  }

  async function tick(): Promise<void> {
    if (ticking) return ticking
    ticking = (async () => {
      const now = ctx.now()
      for (const project of ctx.config.projects) {
        if (!project.agent) continue
        for (const automation of await enabled(project)) {
          await runDueSlot(project, automation, now).catch(failed('schedule', { project: project.id, automation: automation.id }))
        }
        await checkContent(project).catch(failed('content check', { project: project.id }))
      }
    })().finally(() => (ticking = null))
    return ticking
  }

  async function checkPullRequests(): Promise<void> {
    if (checking) return checking
    checking = (async () => {
      const now = ctx.now()
      for (const project of ctx.config.projects) {
        if (!project.agent || project.automations.notifications.length === 0) continue
        const host = ctx.agentGit.host(project)
        if (!host.pullRequestState) continue
        for (const automation of await ctx.store.listAutomations(project.id)) {
          const seen = new Set<string>()
          for (const run of (await ctx.store.listAutomationRuns(project.id, automation.id, { limit: 20 })).items) {
            if (!run.prLink || seen.has(run.jobId)) continue
            seen.add(run.jobId)
            const job = await ctx.store.getJob(project.id, run.jobId)
            if (!job?.pr || job.status === 'archived') continue
            const state = await host
              .pullRequestState(job.pr, { branch: job.branch, base: job.source.ref ?? project.agent.ref })
              .catch(() => 'unknown' as const)
            const base = eventBase(ctx, project, automation, { id: run.id, reason: run.reason, jobId: job.id })
            const pullRequest = { url: job.pr.url }
            if (state === 'merged') {
              notifier.send(project, { ...base, type: 'run_merged', pullRequest }, `merged:${job.pr.url}`)
            } else if (state === 'open') {
              const every = project.automations.reviewReminderDays
              const days = Math.floor((now.getTime() - job.createdAt.getTime()) / DAY_MS)
              if (days >= every) {
                notifier.send(
                  project,
                  { ...base, type: 'pr_waiting', pullRequest, days },
                  `waiting:${job.pr.url}:${Math.floor(days / every)}`,
                )
              }
            }
          }
        }
      }
    })().finally(() => (checking = null))
    return checking
  }

  /** A merged pull request of a code repository: recorded once, and each code automation that lists it runs once for it. */
  async function onMerged(host: HostKind, event: PullRequestEvent, scope: WebhookScope): Promise<number> {
    let runs = 0
    const path = event.repository.path?.toLowerCase()
    for (const project of ctx.config.projects) {
      if (scope.kind === 'code' && !scope.projects.has(project.id)) continue
      const listed = project.automations.codeRepositories.find((entry) => entry.host === host && entry.repository.toLowerCase() === path)
      if (!listed || !project.agent) continue
      const recorded = await ctx.store.recordCodeChange({
        projectId: project.id,
        repository: listed.repository,
        kind: 'pull_request',
        ref: String(event.number),
        title: event.title.slice(0, 500),
        body: event.body.slice(0, 10_000) || null,
        labels: event.labels.slice(0, 50),
        url: event.url,
        commit: event.mergeCommit,
        receivedAt: ctx.now(),
      })
      if (!recorded) continue
      for (const automation of await enabled(project)) {
        const trigger = automation.trigger
        if (trigger.kind !== 'code' || (trigger.repositories.length > 0 && !trigger.repositories.includes(listed.repository))) continue
        const started = await startAutomationRun(ctx, {
          project,
          automation,
          reason: 'code',
          key: `code:${listed.repository}#${event.number}`,
          context: { repository: listed.repository, number: Number(event.number), title: event.title.slice(0, 200), url: event.url },
        })
        if (started) runs++
      }
    }
    return runs
  }

  /** A push to the docs repository's branch: its commits are kept for changelogs, the docs reload, content automations run. */
  async function onPush(host: HostKind, event: PushEvent): Promise<number> {
    let runs = 0
    const { after, repository } = event
    if (!after || isDeletedBranchHead(after) || !event.branch) return 0
    for (const project of ctx.config.projects) {
      const docs = docsRepositoryOf(project)
      const named =
        (repository.path !== null && docs?.names.includes(repository.path.toLowerCase())) ||
        repository.urls.some((url) => docs?.urls.some((docsUrl) => sameRepositoryUrl(url, docsUrl)))
      if (docs?.host !== host || !named || event.branch !== docs.branch) continue
      for (const commit of event.commits.slice(-100)) {
        const [title = '', ...rest] = commit.message.trim().split('\n')
        await ctx.store.recordCodeChange({
          projectId: project.id,
          repository: repository.path ?? repository.urls[0] ?? '',
          kind: 'commit',
          ref: commit.id,
          title: title.trim().slice(0, 500),
          body: rest.join('\n').trim().slice(0, 10_000) || null,
          labels: [],
          url: commit.url,
          commit: commit.id,
          receivedAt: ctx.now(),
        })
      }
      const reload = ctx.search
        .refresh(project.id)
        .catch(failed('docs refresh', { project: project.id }))
        .finally(() => reloads.get(project.id) === reload && reloads.delete(project.id))
      reloads.set(project.id, reload)
      runs += await checkContent(project, after, event.commits.find((commit) => commit.id === after)?.message)
    }
    return runs
  }

  const agentHooks: AgentServiceHooks = {
    async executorFor(run) {
      const record = await ctx.store.getAutomationRun(run.projectId, run.id)
      if (!record) return null
      const { automationRunExecutor } = await (executor ??= import('./executor.ts'))
      return automationRunExecutor(ctx, { notifier, signals }, record)
    },
    async onRunEnded(run, outcome) {
      const record = await ctx.store.getAutomationRun(run.projectId, run.id)
      if (!record) return
      const updated = await ctx.store.updateAutomationRun(record.id, {
        status: outcome.status === 'done' ? 'completed' : 'failed',
        prLink: outcome.pr?.url ?? null,
        note: (outcome.status === 'done' ? outcome.note : outcome.error)?.slice(0, 4_000) ?? null,
      })
      const project = ctx.projects.byId(run.projectId)
      if (outcome.status === 'failed' && updated && project) {
        const automation = (await ctx.store.getAutomation(project.id, record.automationId)) ?? {
          id: record.automationId,
          name: definitionOf(record.automationId)?.name ?? record.automationId,
        }
        notifier.send(
          project,
          {
            ...eventBase(ctx, project, automation, { id: record.id, reason: record.reason, jobId: record.jobId }),
            type: 'run_failed',
            error: outcome.error ?? 'the run failed',
          },
          `failed:${record.id}`,
        )
      }
    },
  }

  return {
    tick,
    checkPullRequests,
    agentHooks,
    notifier,
    start() {
      if (timers.length) return
      timers = [
        setInterval(() => void tick(), tickMs),
        setInterval(() => void checkPullRequests().catch(failed('pull request check', {})), prCheckMs),
      ]
      unsubscribe = [
        // A delivery only a code repository's secret signed is a code change for the projects that list it, never a
        // docs push (see server/webhooks/routes.ts).
        ctx.webhooks.onWebhookEvent((host, event: HostEvent, scope) =>
          event.kind === 'pull_request' && event.action === 'merged'
            ? onMerged(host, event, scope)
            : event.kind === 'push' && scope.kind === 'server'
              ? onPush(host, event)
              : 0,
        ),
        // The embedded host sees its own pushes: a move of a project's base branch is a docs change at once.
        ctx.agentGit.onLocalPush((push) => {
          for (const project of ctx.config.projects) {
            const local = localRepositoryOf(project)
            if (local && `local:${local.name}` === push.repository && local.branch === push.branch) {
              void checkContent(project, push.commit).catch(failed('content check', { project: project.id }))
            }
          }
        }),
      ]
      void tick()
    },
    async stop() {
      for (const timer of timers) clearInterval(timer)
      timers = []
      for (const stop of unsubscribe) stop()
      unsubscribe = []
      await ticking
      await checking
      await Promise.all([...contentChecks.values()].map((check) => check.catch(() => undefined)))
      await notifier.settled()
    },
  }
}

/**
 * The docs repository as webhooks name it (`owner/name`, lower case): the agent host's repository when the docs are
 * the agent's repository, and the URL's path; its host, and the branch whose moves count.
 */
function docsRepositoryOf(project: ProjectConfig): { host: HostKind; names: string[]; urls: string[]; branch: string } | null {
  const agent = project.agent
  const docs = project.docs
  const url = 'repository' in docs ? docs.repository : agent?.repository
  const branch = 'repository' in docs ? docs.ref : agent?.ref
  if (!url || !branch || url.startsWith('local:')) return null
  const names: string[] = []
  let host: 'github' | 'gitlab' | undefined
  if (agent && agent.repository === url && agent.host.kind !== 'local') {
    host = agent.host.kind
    names.push(agent.host.kind === 'github' ? agent.host.repo : agent.host.project)
  }
  try {
    const parsed = new URL(url)
    host ??= /gitlab/i.test(parsed.hostname) ? 'gitlab' : 'github'
    names.push(repositoryName(parsed.pathname))
  } catch {
    // not a URL: only the host's name
  }
  return host ? { host, names: names.map((name) => name.toLowerCase()), urls: [url], branch } : null
}
