import type { RunReason } from '../../shared/automations.ts'
import { DocentError } from '../../shared/errors.ts'
import { jobEvents } from '../agent/events.ts'
import { newJob } from '../agent/jobs.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { AGENT_HOUR_RULE, counterOf } from '../http/rate-limit.ts'
import type { AutomationRecord, AutomationRunRecord, JobRecord } from '../store/types.ts'
import { definitionOf } from './catalog.ts'
import { usesEngine } from './plan.ts'

export interface StartRunInput {
  project: ProjectConfig
  automation: AutomationRecord
  reason: RunReason
  /** What the run is for, unique per automation (see AutomationRunRecord.key): a second start with it does nothing. */
  key: string
  context?: Record<string, unknown>
  /** The run is counted against the project's hourly agent limit already (the trigger route's guard admitted it). */
  counted?: boolean
}

/**
 * Why a run did not start: a run with its key started already (here or on another instance), or the project spent its
 * hourly agent limit (`retryAfterSeconds`: until the hour's end).
 */
export type RunNotStarted = { reason: 'taken' } | { reason: 'limited'; limit: number; retryAfterSeconds: number }

/**
 * How long a run's key stays counted: the instances that try the same schedule slot or docs revision do so within a
 * tick of each other, which this outlasts by far (even across the top of the hour, where the hour counter starts over).
 */
const KEY_COUNTED_MS = 86_400_000

/** The model a job of this automation reports: `docent-automations` when an engine does the work with no model. */
export const ENGINE_MODEL_ID = 'docent-automations'

/**
 * Starts a run of an automation as an agent job, once per key: a maintenance automation in pull-request mode
 * continues the job of its open pull request (a follow-up on the same branch), anything else gets a new job. The
 * claim, the job and its queued run are one atomic store write; null when the key had run already, or when the
 * project's hourly agent limit is spent (logged: the run is skipped, not postponed).
 */
export async function startAutomationRun(ctx: DocentContext, input: StartRunInput): Promise<AutomationRunRecord | null> {
  const outcome = await tryStartAutomationRun(ctx, input)
  if ('id' in outcome) return outcome
  if (outcome.reason === 'limited') {
    ctx.log.warn('automation run not started: the project made its agent jobs of this hour', {
      project: input.project.id,
      automation: input.automation.id,
      reason: input.reason,
      key: input.key,
      limit: outcome.limit,
      retryAfterSeconds: outcome.retryAfterSeconds,
    })
  }
  return null
}

/** `startAutomationRun`, saying why a run did not start instead of null (the trigger answers a spent limit with 429). */
export async function tryStartAutomationRun(ctx: DocentContext, input: StartRunInput): Promise<AutomationRunRecord | RunNotStarted> {
  const { project, automation } = input
  if (!project.agent) {
    throw new DocentError('conflict', `project ${project.id} has no agent configured (agent.repository)`, { projectId: project.id })
  }
  const now = ctx.now()
  const continued = await openJobOf(ctx, project, automation)
  const job: JobRecord | null = continued ? null : newJob(ctx, project, usesEngine(ctx, automation) ? ENGINE_MODEL_ID : undefined)
  const run: AutomationRunRecord = {
    id: ctx.ids('run'),
    projectId: project.id,
    automationId: automation.id,
    key: input.key,
    reason: input.reason,
    startedAt: now,
    jobId: continued?.id ?? job!.id,
    status: 'active',
    prLink: null,
    note: null,
    baseCommit: null,
    context: input.context ?? {},
  }
  // Counted last before the claim: a run refused or failed before here spends nothing.
  if (!input.counted) {
    const refused = await admitRun(ctx, input)
    if (refused) return refused
  }
  const started = await ctx.store.startAutomationRun({ run, job, prompt: requestOf(automation) })
  if (!started) return { reason: 'taken' }
  const events = jobEvents(ctx.store, run.jobId, ctx.now)
  await events.add('message', `${automation.name}: run queued (${describeReason(input.reason, input.context)})`, {
    runId: run.id,
    automationId: automation.id,
    reason: input.reason,
  })
  // A follow-up on a finished job makes it active again (the worker does too when it claims the run).
  if (continued) {
    await ctx.store.updateJob(
      continued.id,
      { status: 'active', error: null, updatedAt: ctx.now() },
      { ifStatusIn: ['completed', 'failed'] },
    )
  }
  ctx.work.wake()
  return started
}

/**
 * Counts a run against the project's hourly agent limit, once per key: every instance ticking over a due slot tries
 * to start its run, and the store lets one claim it; the key's own counter (limit 1, counted with the hour's, all or
 * none) makes the hour pay for the run once, not once per instance. Null when admitted.
 */
async function admitRun(ctx: DocentContext, { project, automation, key }: StartRunInput): Promise<RunNotStarted | null> {
  const now = ctx.now()
  const limit = ctx.config.limits.agentPerProjectPerHour
  const hour = counterOf({ name: AGENT_HOUR_RULE, limit, window: 'hour' }, project.id, now)
  const once = {
    key: `automation-run:${project.id}:${automation.id}:${key}`,
    limit: 1,
    expiresAt: new Date(now.getTime() + KEY_COUNTED_MS),
  }
  const { admitted, counts } = await ctx.store.admit([hour, once], now)
  if (admitted) return null
  if (counts[1]! >= 1) return { reason: 'taken' }
  return { reason: 'limited', limit, retryAfterSeconds: Math.max(1, Math.ceil((hour.expiresAt.getTime() - now.getTime()) / 1000)) }
}

/**
 * What the job records as its request: the automation's task, and the team's instructions. Never cut: creating or
 * changing an automation refuses one whose request would not fit the job prompt limit (settings.ts).
 */
export function requestOf(automation: AutomationRecord): string {
  const task = automation.kind === 'custom' ? (automation.prompt ?? '') : (definitionOf(automation.id)?.request ?? automation.name)
  const text = automation.instructions ? `${task}\n\nInstructions: ${automation.instructions}` : task
  return `${automation.name}: ${text}`
}

function describeReason(reason: RunReason, context: Record<string, unknown> | undefined): string {
  switch (reason) {
    case 'schedule':
      return `scheduled for ${String(context?.slot ?? 'its slot')}`
    case 'content':
      return `the docs moved to ${String(context?.revision ?? '').slice(0, 12)}`
    case 'code':
      return `merged: ${String(context?.repository ?? '')}#${String(context?.number ?? '')}`
    case 'manual':
      return 'triggered'
  }
}

/**
 * The job a maintenance automation appends to: the job of its latest run, while that job is running or its pull
 * request is still open. A host that cannot tell counts as open: one pull request too few is better than a duplicate.
 */
async function openJobOf(ctx: DocentContext, project: ProjectConfig, automation: AutomationRecord): Promise<JobRecord | null> {
  const definition = definitionOf(automation.id)
  if (automation.kind !== 'predefined' || definition?.class !== 'maintenance' || automation.mode !== 'pull_request') return null
  const [latest] = (await ctx.store.listAutomationRuns(project.id, automation.id, { limit: 1 })).items
  const job = latest ? await ctx.store.getJob(project.id, latest.jobId) : null
  if (!job || job.status === 'archived') return null
  if (job.status === 'active') return job
  if (!job.pr) return job.branch ? null : job
  const host = ctx.agentGit.host(project)
  const state = host.pullRequestState
    ? await host
        .pullRequestState(job.pr, { branch: job.branch, base: job.source.ref ?? project.agent!.ref })
        .catch(() => 'unknown' as const)
    : 'unknown'
  return state === 'open' || state === 'unknown' ? job : null
}
