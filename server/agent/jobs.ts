import { DocentError } from '../../shared/errors.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { JobRecord } from '../store/types.ts'
import { jobEvents } from './events.ts'
import { modelIdOf } from '../context.ts'

/** The project's agent; a 409 when it has none. */
export function agentOf(project: ProjectConfig): NonNullable<ProjectConfig['agent']> {
  if (!project.agent) {
    throw new DocentError('conflict', `project "${project.id}" has no agent configured (agent.repository)`, { projectId: project.id })
  }
  return project.agent
}

/** A new active job of the project's agent, not stored yet; `model` is the id it reports (the editor's by default). */
export function newJob(ctx: DocentContext, project: ProjectConfig, model = modelIdOf(ctx.models.editor)): JobRecord {
  const agent = agentOf(project)
  const now = ctx.now()
  return {
    id: ctx.ids('job'),
    projectId: project.id,
    status: 'active',
    source: { repository: agent.repository, ref: agent.ref },
    model,
    branch: null,
    pr: null,
    error: null,
    conversation: [],
    createdAt: now,
    updatedAt: now,
    archivedAt: null,
  }
}

/** Stores a new active job and enqueues its first run. */
export async function createJob(ctx: DocentContext, project: ProjectConfig, prompt: string): Promise<JobRecord> {
  const job = newJob(ctx, project)
  await ctx.store.insertJob(job)
  try {
    await enqueue(ctx, job, prompt, 'job created')
  } catch (error) {
    // A job must never stay active with nothing queued to end it.
    await ctx.store.updateJob(
      job.id,
      { status: 'failed', error: 'the run could not be queued', updatedAt: ctx.now() },
      {
        ifStatusIn: ['active'],
      },
    )
    throw error
  }
  return job
}

/**
 * A follow-up: its run is queued behind any run still in progress, then the job becomes active again. Queuing
 * first means a run finishing meanwhile either sees the new run (and keeps the job active) or is overtaken by it.
 */
export async function sendFollowUp(ctx: DocentContext, project: ProjectConfig, id: string, prompt: string): Promise<JobRecord> {
  const job = await followUpTarget(ctx, project, id)
  await enqueue(ctx, job, prompt, 'follow-up received')
  const active = await ctx.store.updateJob(
    id,
    { status: 'active', error: null, updatedAt: ctx.now() },
    {
      ifStatusIn: ['active', 'completed', 'failed'],
    },
  )
  if (!active) {
    // Archived between the check and the queueing: the run must not execute.
    await ctx.store.cancelRuns(id)
    throw archivedConflict(id)
  }
  return active
}

/** The job a follow-up goes to: the project's (404 otherwise), not archived (409), with an agent to run it (409). */
export async function followUpTarget(ctx: DocentContext, project: ProjectConfig, id: string): Promise<JobRecord> {
  agentOf(project)
  const job = await getJobOr404(ctx, project, id)
  if (job.status === 'archived') throw archivedConflict(id)
  return job
}

const archivedConflict = (id: string) => new DocentError('conflict', `job ${id} is archived; start a new job instead`, { jobId: id })

async function enqueue(ctx: DocentContext, job: JobRecord, prompt: string, what: string): Promise<void> {
  const run = await ctx.store.enqueueRun({ id: ctx.ids('run'), jobId: job.id, projectId: job.projectId, prompt, createdAt: ctx.now() })
  await jobEvents(ctx.store, job.id, ctx.now).add('message', `${what}: ${prompt}`, { runId: run.id, seq: run.seq })
  ctx.work.wake()
}

export async function getJobOr404(ctx: DocentContext, project: ProjectConfig, id: string): Promise<JobRecord> {
  const job = await ctx.store.getJob(project.id, id)
  if (!job) throw new DocentError('not_found', `job not found: no job ${id} in project ${project.id}`, { jobId: id })
  return job
}

/** Archived is terminal; archiving an active job cancels its queued and running runs. */
export async function archiveJob(ctx: DocentContext, project: ProjectConfig, id: string): Promise<JobRecord> {
  const job = await getJobOr404(ctx, project, id)
  if (job.status === 'archived') return job
  const now = ctx.now()
  const archived = await ctx.store.updateJob(id, { status: 'archived', archivedAt: now, updatedAt: now })
  const cancelled = await ctx.store.cancelRuns(id)
  ctx.work.cancel(id)
  await jobEvents(ctx.store, id, ctx.now).add(
    cancelled > 0 ? 'run.cancelled' : 'message',
    cancelled > 0 ? `job archived; ${cancelled} run(s) cancelled` : 'job archived',
  )
  return archived ?? { ...job, status: 'archived', archivedAt: now }
}
