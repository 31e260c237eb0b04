import type { GapFixBody } from '../../../shared/analytics.ts'
import { DocentError } from '../../../shared/errors.ts'
import { agentOf, archiveJob, createJob, sendFollowUp } from '../../agent/jobs.ts'
import type { ProjectConfig } from '../../config.ts'
import type { DocentContext } from '../../context.ts'
import { loadCorpus } from '../../search/load-corpus.ts'
import { allTime } from '../range.ts'
import type { GapRecord, JobRecord } from '../../store/types.ts'
import { type FixRequest, llmFixPrompt, offlineFixPrompt } from './prompt.ts'
import { gapPages, gapQuestions } from './questions.ts'

/** A fix is under way in these statuses: a second one would race the first. */
export const FIXING = ['in_progress', 'pr_open', 'merged'] as const

export async function getGapOr404(ctx: DocentContext, project: ProjectConfig, id: string): Promise<GapRecord> {
  const gap = await ctx.store.getGap(project.id, id)
  if (!gap) throw new DocentError('not_found', `gap not found: no gap ${id} in project ${project.id}`)
  return gap
}

/** The gap a fix is for: the project's (404), no fix of it under way and an agent to make one (409). */
export async function fixableGap(ctx: DocentContext, project: ProjectConfig, id: string): Promise<GapRecord> {
  const gap = await getGapOr404(ctx, project, id)
  if ((FIXING as readonly string[]).includes(gap.status)) {
    throw new DocentError('conflict', `a fix of this gap is under way (job ${gap.jobId}, ${gap.status}); wait for it or archive the job`)
  }
  agentOf(project)
  return gap
}

/**
 * Starts an agent job that fixes a gap: its prompt is built from the readers' questions and wording, where they
 * were, the sections that came nearest, and the writer's facts and page. The gap is `in_progress` until the job ends.
 */
export async function fixGap(ctx: DocentContext, project: ProjectConfig, id: string, body: GapFixBody): Promise<JobRecord> {
  const gap = await fixableGap(ctx, project, id)
  const corpus = await loadCorpus(ctx, project, 'a gap fix')
  let page: string | null = null
  if (body.page) {
    const found = corpus.page(body.page)
    if (!found) throw new DocentError('invalid_request', `page: no page "${body.page}" in the docs`)
    page = found.path
  } else {
    page = gap.sections[0]?.path ?? null
  }
  const signals = await ctx.store.listGapSignals(project.id, gap.id, allTime(), 500)
  const request: FixRequest = {
    gap,
    questions: gapQuestions(signals),
    pages: gapPages(signals),
    page,
    text: body.text,
    prompt: body.prompt,
  }

  let prompt: string
  let followUp: string | undefined
  if (ctx.config.model.provider === 'offline') {
    // The offline editor carries out plain instructions; it cannot draft from the docs, so it needs the facts.
    if (body.text) {
      if (!page) throw new DocentError('invalid_request', 'page: no page came near these questions; say which page gets the section')
      const offline = offlineFixPrompt({ ...request, text: body.text, page })
      if (!offline) throw new DocentError('invalid_request', 'text: uses every kind of quote mark; drop one kind')
      prompt = offline
      followUp = body.prompt
    } else if (body.prompt) {
      prompt = body.prompt
    } else {
      throw new DocentError(
        'invalid_request',
        'text: the offline editor needs the facts to write (text), or an instruction it understands (prompt); with an LLM configured the agent drafts from the docs',
      )
    }
  } else {
    prompt = llmFixPrompt(request)
  }
  const job = await createJob(ctx, project, prompt)
  const started = await ctx.store.updateGap(
    gap.id,
    { status: 'in_progress', jobId: job.id, reason: null, merge: null, verifiedAt: null, updatedAt: ctx.now() },
    { ifStatusIn: ['open', 'fixed', 'dismissed'] },
  )
  if (!started) {
    await archiveJob(ctx, project, job.id)
    throw new DocentError('conflict', 'another fix of this gap started meanwhile')
  }
  if (followUp) return sendFollowUp(ctx, project, job.id, followUp)
  return job
}

/** Dismissed: not worth a fix (off-topic, spam). A later fix reopens it. */
export async function dismissGap(ctx: DocentContext, project: ProjectConfig, id: string): Promise<GapRecord> {
  const gap = await getGapOr404(ctx, project, id)
  if ((FIXING as readonly string[]).includes(gap.status)) {
    throw new DocentError('conflict', `a fix of this gap is under way (job ${gap.jobId}); archive the job first`)
  }
  const dismissed = await ctx.store.updateGap(
    gap.id,
    { status: 'dismissed', reason: null, updatedAt: ctx.now() },
    { ifStatusIn: ['open', 'fixed', 'dismissed'] },
  )
  if (!dismissed) throw new DocentError('conflict', 'the gap changed meanwhile; try again')
  return dismissed
}

/** Reopened: a dismissal taken back (readers kept asking, or it was a slip). Open already, it stays open. */
export async function reopenGap(ctx: DocentContext, project: ProjectConfig, id: string): Promise<GapRecord> {
  const gap = await getGapOr404(ctx, project, id)
  if (gap.status === 'open') return gap
  if (gap.status !== 'dismissed') {
    throw new DocentError('conflict', `only a dismissed gap is reopened; this one is ${gap.status.replace('_', ' ')}`)
  }
  const reopened = await ctx.store.updateGap(gap.id, { status: 'open', reason: null, updatedAt: ctx.now() }, { ifStatusIn: ['dismissed'] })
  if (!reopened) throw new DocentError('conflict', 'the gap changed meanwhile; try again')
  return reopened
}
