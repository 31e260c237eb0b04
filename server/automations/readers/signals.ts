import { cleanLine } from '../../analytics/normalize.ts'
import type { DocentContext } from '../../context.ts'

/**
 * What readers told the docs team, as "fill gaps" and "improve from feedback" read it: backed by the analytics store
 * (gaps clustered from unanswered, rated-down and zero-result questions; feedback with its page), and replaceable in
 * `createDocent` (`DocentOverrides.readerSignals`).
 */
export interface ReaderSignals {
  /** Questions the docs did not answer, grouped (biggest first), asked since `since`. */
  listOpenGaps(projectId: string, options: { since: Date; limit: number }): Promise<ReaderGap[]>
  /** Readers' comments (and thumbs down with no comment) on answers and pages, since `since`, oldest first. */
  listFeedback(projectId: string, options: { since: Date; limit: number }): Promise<ReaderFeedback[]>
}

/**
 * A gap's questions (its title among them) and pages, and feedback's comment and path, are what anonymous readers sent:
 * what of them is written into a page goes through `inertText` (propose.ts), so it reads as text whatever Markdown or
 * MDX it holds.
 */
export interface ReaderGap {
  id: string
  title: string
  questions: Array<{ query: string; count: number }>
  /** Pages readers were on when they asked. */
  pages: string[]
  /** The sections that came nearest to an answer. */
  closest: Array<{ title: string; url: string }>
}

export interface ReaderFeedback {
  id: string
  /** The docs page it concerns (the rated answer's first source), when known. */
  path: string | null
  comment: string | null
  helpful: boolean
  createdAt: Date
}

/** Questions read per gap: enough to show its wordings and how often each was asked. */
const SIGNALS_PER_GAP = 200
/** Feedback rows read per call, newest first: a bound on the work a weekly automation does however busy the assistant is. */
const MAX_FEEDBACK = 1_000

/** Open gaps and feedback from the analytics store, after what the recorder still holds is stored and assigned. */
export function analyticsReaderSignals(ctx: DocentContext): ReaderSignals {
  const rangeFrom = (since: Date) => ({ from: since, to: new Date(Math.max(ctx.now().getTime(), Date.now()) + 1) })
  return {
    async listOpenGaps(projectId, { since, limit }) {
      await ctx.analytics.flush()
      const range = rangeFrom(since)
      const page = await ctx.store.listGaps(projectId, { range, status: 'open', limit })
      const gaps: ReaderGap[] = []
      for (const { gap } of page.items) {
        const signals = await ctx.store.listGapSignals(projectId, gap.id, range, SIGNALS_PER_GAP)
        const questions = new Map<string, number>()
        for (const signal of signals) {
          // One line: wordings that differ only in line breaks count together, and none adds a line where it is listed.
          const query = cleanLine(signal.query, 500)
          if (query) questions.set(query, (questions.get(query) ?? 0) + 1)
        }
        if (questions.size === 0) continue
        // The wording most asked names the gap; among equals, one written as a question, then the fullest.
        const asked = [...questions]
          .map(([query, count]) => ({ query, count }))
          .sort(
            (a, b) => b.count - a.count || Number(b.query.endsWith('?')) - Number(a.query.endsWith('?')) || b.query.length - a.query.length,
          )
        gaps.push({
          id: gap.id,
          title: asked[0]!.query,
          questions: asked,
          pages: [...new Set(signals.flatMap((signal) => (signal.pageUrl ? [signal.pageUrl] : [])))],
          closest: gap.sections.slice(0, 3).map((section) => ({ title: section.title, url: section.url })),
        })
      }
      return gaps
    },
    async listFeedback(projectId, { since, limit }) {
      await ctx.analytics.flush()
      const feedback: ReaderFeedback[] = []
      let cursor: string | undefined
      for (let read = 0; read < MAX_FEEDBACK; ) {
        const page = await ctx.store.listFeedback(projectId, { range: rangeFrom(since) }, { limit: 100, cursor })
        read += page.items.length
        for (const entry of page.items) {
          if (entry.rating === 'up' && !entry.comment) continue
          feedback.push({
            id: entry.id,
            path: entry.path,
            comment: entry.comment ?? null,
            helpful: entry.rating === 'up',
            createdAt: entry.createdAt,
          })
        }
        if (!page.nextCursor) break
        cursor = page.nextCursor
      }
      return feedback.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()).slice(0, limit)
    },
  }
}
