import type { GapStatus } from '../../../shared/analytics.ts'
import type { PullState } from '../../agent/hosts/pull-state.ts'
import type { ProjectConfig } from '../../config.ts'
import type { DocentContext } from '../../context.ts'
import type { GapRecord, JobRecord } from '../../store/types.ts'
import { FIXING } from './fix.ts'
import { docsReachedMerge, verifyGap } from './verify.ts'

/** Which pull request an event is about: any of the job, the host's number, the branch. */
export interface PullMatch {
  jobId?: string
  number?: string
  branch?: string
}

/**
 * A gap's way from a fix to fixed: `in_progress` while its job runs, `pr_open` once the job opened a pull request,
 * `merged` when the pull request lands (the local merge endpoint, a webhook, or a poll of the host), then `fixed` when
 * every page the fix changed is still valid MDX and the readers' questions re-asked against the docs as served after
 * the merge are answered from a changed page, or back to `open` with the reason at any step that fails.
 */
export interface GapLifecycle {
  /**
   * Moves every gap of the project (or of all projects) whose fix is under way as far as its job, PR and docs allow.
   * `poll` asks GitHub/GitLab where pull requests stand: `due` those not asked for `analytics.prPollSeconds` (the
   * loop), `now` all of them; without it only the local host's pull requests are looked at.
   */
  advance(projectId?: string, options?: { poll?: 'due' | 'now' }): Promise<void>
  /** A pull request was merged into `commit` (null when the host did not say): its gap goes on to verification. */
  pullRequestMerged(project: ProjectConfig, match: PullMatch, commit: string | null): Promise<number>
  /** A pull request was closed without merging: its gap is open again. */
  pullRequestClosed(project: ProjectConfig, match: PullMatch): Promise<number>
  /** Starts the periodic pass; returns its stop. */
  start(): () => void
}

/** Between two refreshes of a remote docs repository (passes of the loop: `config.gapPollMs`). */
const REMOTE_REFRESH_MS = 30_000

export function gapLifecycle(ctx: DocentContext): GapLifecycle {
  const lastPolled = new Map<string, number>()
  const lastRefreshed = new Map<string, number>()
  const settling = new Set<string>()
  /**
   * The pages that were not valid MDX in the docs served when each gap's merge was seen: a page the fix changed that
   * was broken already is not the fix's doing. Kept in memory (a merge seen by another process or before a restart is
   * verified without it, every changed page that does not parse then counting), and dropped once the gap is settled.
   */
  const notMdxBeforeMerge = new Map<string, ReadonlySet<string>>()

  const update = (gap: GapRecord, patch: Partial<GapRecord>, from: GapStatus[]) =>
    ctx.store.updateGap(gap.id, { ...patch, updatedAt: ctx.now() }, { ifStatusIn: from })
  const reopen = async (gap: GapRecord, reason: string) => {
    const open = await update(gap, { status: 'open', reason }, [gap.status])
    if (open) ctx.log.info('gap open again', { project: gap.projectId, gap: gap.id, reason })
  }

  const refreshDocs = async (project: ProjectConfig, force: boolean) => {
    const local = 'directory' in project.docs || project.docs.repository.startsWith('local:')
    const last = lastRefreshed.get(project.id) ?? 0
    if (!force && !local && Date.now() - last < REMOTE_REFRESH_MS) return
    lastRefreshed.set(project.id, Date.now())
    await ctx.search.refresh(project.id)
  }

  /** Merged: once the served docs include the merge, re-ask the questions (one verification per gap at a time). */
  const settle = async (project: ProjectConfig, gap: GapRecord, force = false) => {
    if (settling.has(gap.id)) return
    settling.add(gap.id)
    try {
      await refreshDocs(project, force)
      if (!(await docsReachedMerge(ctx, project, gap))) return
      const result = await verifyGap(ctx, project, gap, notMdxBeforeMerge.get(gap.id) ?? null)
      const patch: Partial<GapRecord> = result.fixed
        ? { status: 'fixed', reason: null, verifiedAt: ctx.now() }
        : { status: 'open', reason: result.reason, verifiedAt: ctx.now() }
      if (await update(gap, patch, ['merged'])) {
        notMdxBeforeMerge.delete(gap.id)
        ctx.log.info(result.fixed ? 'gap fixed' : 'gap not fixed by its merge', { project: project.id, gap: gap.id, reason: result.reason })
      }
    } finally {
      settling.delete(gap.id)
    }
  }

  const markMerged = async (project: ProjectConfig, gap: GapRecord, commit: string | null) => {
    const corpus = await ctx.search.corpus(project.id).catch(() => null)
    const status = ctx.search.status?.(project.id)
    const merged = await update(
      gap,
      { status: 'merged', reason: null, merge: { commit: commit ?? '', at: ctx.now(), revisionAtMerge: corpus?.revision ?? null } },
      ['in_progress', 'pr_open'],
    )
    // Only docs served before the merge say what was broken before it (a push webhook may have reloaded them already).
    if (merged && corpus && status?.revision === corpus.revision && corpus.revision !== commit) {
      notMdxBeforeMerge.set(gap.id, new Set(status.notMdx))
    }
    if (merged) ctx.analytics.track('gap verification', () => settle(project, merged, true))
    return merged !== null
  }

  const pullState = async (project: ProjectConfig, job: JobRecord, pollHost: boolean): Promise<PullState | null> => {
    const agent = project.agent
    if (!agent || !job.pr || !job.branch) return null
    const base = job.source.ref ?? agent.ref
    const { host } = agent
    if (host.kind === 'local') {
      const { localPullState } = await import('../../agent/hosts/pull-state.ts')
      const repo = await ctx.agentGit.localRepositories.open(agent.repository.replace(/^local:/, ''))
      return localPullState(repo, job.id, job.branch, base)
    }
    if (!pollHost) return null
    const token = ctx.env[host.token.env]
    if (!token) return null
    const { gitHubPullState, gitLabPullState } = await import('../../agent/hosts/pull-state.ts')
    const api = { fetch: ctx.fetch, apiBase: host.apiBase, token }
    return host.kind === 'github'
      ? gitHubPullState({ ...api, repo: host.repo }, job.pr.number)
      : gitLabPullState({ ...api, project: host.project }, job.pr.number)
  }

  /** Whether the host's pull request of this gap is to be asked about on this pass (see `advance`); noted if so. */
  const pollDue = (gap: GapRecord, poll: 'due' | 'now' | undefined) => {
    const due =
      poll === 'now' || (poll === 'due' && Date.now() - (lastPolled.get(gap.id) ?? 0) >= ctx.config.analytics.prPollSeconds * 1000)
    if (due) lastPolled.set(gap.id, Date.now())
    return due
  }

  /**
   * Merged, and the docs have not reached the merge yet: the host's word on its pull request wins over the delivery's
   * (a forged or mistaken webhook). Still open there, the gap waits for it again; closed, it is open again.
   */
  const confirmMerged = async (project: ProjectConfig, gap: GapRecord, poll: 'due' | 'now' | undefined) => {
    const job = gap.jobId ? await ctx.store.getJob(project.id, gap.jobId) : null
    if (!job) return
    const state = await pullState(project, job, pollDue(gap, poll))
    if (state?.state === 'open') {
      if (await update(gap, { status: 'pr_open', merge: null }, ['merged'])) {
        ctx.log.warn('gap merge not confirmed: its pull request is still open', { project: project.id, gap: gap.id })
      }
    } else if (state?.state === 'closed') await reopen(gap, 'the pull request was closed without merging')
  }

  const advanceGap = async (project: ProjectConfig, gap: GapRecord, poll: 'due' | 'now' | undefined) => {
    if (gap.status === 'merged') {
      await settle(project, gap)
      const still = await ctx.store.getGap(project.id, gap.id)
      return still?.status === 'merged' ? confirmMerged(project, still, poll) : undefined
    }
    const job = gap.jobId ? await ctx.store.getJob(project.id, gap.jobId) : null
    if (!job) return reopen(gap, 'the fix job no longer exists')
    if (job.status === 'archived') return reopen(gap, 'the fix job was archived')
    // A follow-up may be running on the job: wait for it, whatever the pull request does meanwhile.
    if (job.status === 'active') return
    if (job.status === 'failed') return reopen(gap, `the fix job failed: ${job.error ?? 'no reason given'}`)
    if (!job.pr) return reopen(gap, 'the fix job changed no file (see its events for why)')
    if (gap.status === 'in_progress') {
      const opened = await update(gap, { status: 'pr_open' }, ['in_progress'])
      if (!opened) return
      gap = opened
    }
    const state = await pullState(project, job, pollDue(gap, poll))
    if (state?.state === 'merged') await markMerged(project, gap, state.commit)
    else if (state?.state === 'closed') await reopen(gap, 'the pull request was closed without merging')
  }

  const gapsOfPull = async (project: ProjectConfig, match: PullMatch, statuses: GapStatus[]) => {
    const found: GapRecord[] = []
    for (const gap of await ctx.store.listGapRecords(project.id, { statuses, limit: 500 })) {
      const job = gap.jobId ? await ctx.store.getJob(project.id, gap.jobId) : null
      if (!job) continue
      const same =
        (match.jobId !== undefined && match.jobId === job.id) ||
        (match.number !== undefined && match.number === job.pr?.number) ||
        (match.branch !== undefined && match.branch === job.branch)
      if (same) found.push(gap)
    }
    return found
  }

  const lifecycle: GapLifecycle = {
    async advance(projectId, options = {}) {
      const projects = projectId ? ctx.config.projects.filter((project) => project.id === projectId) : ctx.config.projects
      const fixing = new Set<string>()
      for (const project of projects) {
        for (const gap of await ctx.store.listGapRecords(project.id, { statuses: [...FIXING], limit: 200 })) {
          fixing.add(gap.id)
          await advanceGap(project, gap, options.poll).catch((error: unknown) =>
            ctx.log.warn('a gap fix could not be followed', { project: project.id, gap: gap.id, error: String(error) }),
          )
        }
      }
      // Poll times and docs before the merge of gaps whose fix ended are not needed any more.
      if (!projectId) {
        for (const id of lastPolled.keys()) if (!fixing.has(id)) lastPolled.delete(id)
        for (const id of notMdxBeforeMerge.keys()) if (!fixing.has(id)) notMdxBeforeMerge.delete(id)
      }
    },
    async pullRequestMerged(project, match, commit) {
      let marked = 0
      for (const gap of await gapsOfPull(project, match, ['in_progress', 'pr_open'])) if (await markMerged(project, gap, commit)) marked++
      // The served docs may be the merged branch whether or not a gap waits for it.
      if (marked === 0) ctx.analytics.track('docs refresh', () => refreshDocs(project, true))
      return marked
    },
    async pullRequestClosed(project, match) {
      const gaps = await gapsOfPull(project, match, ['in_progress', 'pr_open'])
      for (const gap of gaps) await reopen(gap, 'the pull request was closed without merging')
      return gaps.length
    },
    start() {
      const every = ctx.config.gapPollMs
      let running = false
      const timer = setInterval(() => {
        if (running) return
        running = true
        ctx.analytics.track('gap progress', () => lifecycle.advance(undefined, { poll: 'due' }).finally(() => (running = false)))
      }, every)
      return () => clearInterval(timer)
    },
  }
  return lifecycle
}
