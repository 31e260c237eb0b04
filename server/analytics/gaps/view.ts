import type { Gap } from '../../../shared/analytics.ts'
import { jobView } from '../../agent/job-view.ts'
import type { DocentContext } from '../../context.ts'
import type { DateRange, GapRecord } from '../../store/types.ts'
import { gapPages, gapQuestions } from './questions.ts'

/** Questions of a gap read to describe it: the most recent ones in the range. */
const SIGNALS_READ = 1000

/** A gap as the API shows it, with its questions, pages and counts in the range. */
export async function gapView(
  ctx: DocentContext,
  gap: GapRecord,
  range: DateRange,
  counts?: { count: number; firstSeenAt: Date; lastSeenAt: Date },
): Promise<Gap> {
  const signals = await ctx.store.listGapSignals(gap.projectId, gap.id, range, SIGNALS_READ)
  const questions = gapQuestions(signals)
  const job = gap.jobId ? await ctx.store.getJob(gap.projectId, gap.jobId) : null
  const first = counts?.firstSeenAt ?? signals.at(-1)?.at ?? gap.firstSeenAt
  const last = counts?.lastSeenAt ?? signals[0]?.at ?? gap.lastSeenAt
  return {
    id: gap.id,
    title: questions[0]?.query ?? gap.title,
    status: gap.status,
    reason: gap.reason,
    count: counts?.count ?? signals.length,
    questions: questions.map(({ query, count, lastAskedAt }) => ({ query, count, lastAskedAt: lastAskedAt.toISOString() })),
    pages: gapPages(signals),
    closest: gap.sections.map(({ title, url }) => ({ title, url })),
    firstSeenAt: first.toISOString(),
    lastSeenAt: last.toISOString(),
    jobId: gap.jobId,
    prLink: job ? jobView(job).prLink : null,
    verifiedAt: gap.verifiedAt?.toISOString() ?? null,
    dismissedAt: gap.status === 'dismissed' ? gap.updatedAt.toISOString() : null,
  }
}
