import { AgentJob } from '../../shared/agent.ts'
import {
  AnalyticsRangeQuery,
  AnalyticsThread,
  CallerStats,
  ConversationList,
  ConversationSummary,
  ConversationsQuery,
  FeedbackByPage,
  FeedbackByPageQuery,
  FeedbackItem,
  FeedbackList,
  FeedbackPatchBody,
  FeedbackQuery,
  Gap,
  GapFixBody,
  GapList,
  GapsQuery,
  SearchesQuery,
  SearchTermList,
} from '../../shared/analytics.ts'
import { DocentError } from '../../shared/errors.ts'
import { jobView } from '../agent/job-view.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard, agentWriteGuard } from '../http/guards.ts'
import { type ResponseDoc, type Route, route } from '../http/route.ts'
import { DOCS_UNAVAILABLE } from '../search/load-corpus.ts'
import { EXPORT_PAGE, exportResponse } from './export.ts'
import { dismissGap, fixableGap, fixGap, getGapOr404, reopenGap } from './gaps/fix.ts'
import { gapView } from './gaps/view.ts'
import { bucketFor, rangeLabel, rangeOf } from './range.ts'
import {
  CONVERSATION_COLUMNS,
  conversationRow,
  conversationView,
  feedbackView,
  SEARCH_COLUMNS,
  searchTermView,
  summaryView,
} from './views.ts'

const BASE = '/v1/analytics/{projectId}'
const PROJECT = { projectId: 'the project' }
const EXPORTS = [
  { type: 'text/csv', description: 'with `format=csv`: every row of the range, streamed, a header line first' },
  { type: 'application/x-ndjson', description: 'with `format=ndjson`: every row of the range, streamed, one JSON object a line' },
]
const NO_GAP: ResponseDoc = { description: 'no such gap in this project' }
const gapParams = { ...PROJECT, id: 'the gap id' }

/**
 * `/v1/analytics/{projectId}/...` (admin key): the hosted service's analytics API (conversations, threads, callers,
 * feedback, searches) and Docent's summary and gaps. Every read first stores what this server still has queued, so an answer
 * that just ended is in the lists.
 */
export function analyticsRoutes(ctx: DocentContext): Route[] {
  const admin = adminGuard(ctx)
  const write = agentWriteGuard(ctx)
  const flushed = async () => ctx.analytics.flush()

  return [
    route({
      method: 'get',
      path: `${BASE}/assistant`,
      tag: 'analytics',
      summary: 'Conversations: one row per answer, newest first (or all of the range as CSV / NDJSON)',
      guard: admin,
      params: PROJECT,
      query: ConversationsQuery,
      responses: { 200: { description: 'a page of conversations', schema: ConversationList, alternatives: EXPORTS } },
      handler: async (c, { auth, query }) => {
        await flushed()
        const range = rangeOf(query, ctx.now())
        if (query.format !== 'json') {
          return exportResponse(query.format, {
            name: `conversations-${auth.project.id}-${rangeLabel(range)}`,
            columns: CONVERSATION_COLUMNS,
            page: async (cursor) => {
              const page = await ctx.store.listTurns(auth.project.id, range, { limit: EXPORT_PAGE, cursor })
              return { items: page.items.map(conversationView), nextCursor: page.nextCursor }
            },
            row: (conversation) => conversation,
            csvRow: conversationRow,
          })
        }
        const page = await ctx.store.listTurns(auth.project.id, range, { limit: query.limit, cursor: query.cursor })
        return c.json({
          conversations: page.items.map(conversationView),
          nextCursor: page.nextCursor,
          hasMore: page.nextCursor !== null,
        } satisfies ConversationList)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/assistant/threads/{threadId}`,
      tag: 'analytics',
      summary: 'A conversation thread, message by message',
      guard: admin,
      params: { ...PROJECT, threadId: 'the thread id (threadId of a conversation)' },
      responses: { 200: { description: 'the thread', schema: AnalyticsThread }, 404: { description: 'no such thread in this project' } },
      handler: async (c, { auth }) => {
        const thread = await ctx.store.getThread(auth.project.id, c.req.param('threadId')!)
        if (!thread) throw new DocentError('not_found', 'thread not found')
        const messages = await ctx.store.listMessages(thread.id)
        return c.json({
          threadId: thread.id,
          createdAt: thread.createdAt.toISOString(),
          messages: messages.map((m) => ({ id: m.id, role: m.role, content: m.content, createdAt: m.createdAt.toISOString() })),
        } satisfies AnalyticsThread)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/assistant/caller-stats`,
      tag: 'analytics',
      summary: 'Assistant queries by caller: docs sites (web), API calls (api), AI tools over MCP (other)',
      guard: admin,
      params: PROJECT,
      query: AnalyticsRangeQuery,
      responses: { 200: { description: 'the counts', schema: CallerStats } },
      handler: async (c, { auth, query }) => {
        await flushed()
        const counts = await ctx.store.countCallers(auth.project.id, rangeOf(query, ctx.now()))
        return c.json({ ...counts, total: counts.web + counts.api + counts.other } satisfies CallerStats)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/assistant/summary`,
      tag: 'analytics',
      summary: 'Conversations of the range counted on the server: totals, per day (week, month, year), by category; ratings',
      description:
        'Every conversation of the range, however many: the bucket is the finest of day, week, month and year that draws the range in at most 180 entries, and is returned with them. A range of more than 180 years is a 400 naming `dateFrom`.',
      guard: admin,
      params: PROJECT,
      query: AnalyticsRangeQuery,
      responses: { 200: { description: 'the summary', schema: ConversationSummary } },
      handler: async (c, { auth, query }) => {
        await flushed()
        const range = rangeOf(query, ctx.now())
        const bucket = bucketFor(range)
        const summary = await ctx.store.summarizeTurns(auth.project.id, range, bucket)
        return c.json(summaryView(summary, range, bucket))
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/feedback`,
      tag: 'analytics',
      summary: 'Feedback on answers, newest first',
      guard: admin,
      params: PROJECT,
      query: FeedbackQuery,
      responses: { 200: { description: 'a page of feedback', schema: FeedbackList } },
      handler: async (c, { auth, query }) => {
        await flushed()
        // Docent's only feedback is answer thumbs: any other source has none.
        if (query.source && query.source !== 'thumbs_only')
          return c.json({ feedback: [], nextCursor: null, hasMore: false } satisfies FeedbackList)
        const filter = { range: rangeOf(query, ctx.now()), status: query.status }
        const page = await ctx.store.listFeedback(auth.project.id, filter, { limit: query.limit, cursor: query.cursor })
        return c.json({
          feedback: page.items.map(feedbackView),
          nextCursor: page.nextCursor,
          hasMore: page.nextCursor !== null,
        } satisfies FeedbackList)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/feedback/by-page`,
      tag: 'analytics',
      summary: 'Feedback counted by page, most first',
      guard: admin,
      params: PROJECT,
      query: FeedbackByPageQuery,
      responses: { 200: { description: 'pages with their thumbs', schema: FeedbackByPage } },
      handler: async (c, { auth, query }) => {
        await flushed()
        if (query.source && query.source !== 'thumbs_only') return c.json({ feedback: [], hasMore: false } satisfies FeedbackByPage)
        const filter = { range: rangeOf(query, ctx.now()), status: query.status }
        const pages = await ctx.store.feedbackByPage(auth.project.id, filter, query.limit)
        return c.json({
          feedback: pages.items.map(({ path, up, down }) => ({ path, thumbsUp: up, thumbsDown: down, code: 0, total: up + down })),
          hasMore: pages.hasMore,
        } satisfies FeedbackByPage)
      },
    }),
    route({
      method: 'patch',
      path: `${BASE}/feedback/{id}`,
      tag: 'analytics',
      summary: 'Move feedback through review (pending → in_progress → resolved | dismissed)',
      guard: admin,
      params: { ...PROJECT, id: 'the feedback id' },
      body: FeedbackPatchBody,
      responses: { 200: { description: 'the feedback', schema: FeedbackItem }, 404: { description: 'no such feedback in this project' } },
      handler: async (c, { auth, body }) => {
        const entry = await ctx.store.setFeedbackStatus(auth.project.id, c.req.param('id')!, body.status)
        if (!entry) throw new DocentError('not_found', 'feedback not found')
        return c.json(feedbackView(entry))
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/searches`,
      tag: 'analytics',
      summary: 'Search terms, most searched first, with click-through (or all of the range as CSV / NDJSON)',
      guard: admin,
      params: PROJECT,
      query: SearchesQuery,
      responses: { 200: { description: 'a page of search terms', schema: SearchTermList, alternatives: EXPORTS } },
      handler: async (c, { auth, query }) => {
        await flushed()
        const range = rangeOf(query, ctx.now())
        if (query.format !== 'json') {
          return exportResponse(query.format, {
            name: `searches-${auth.project.id}-${rangeLabel(range)}`,
            columns: SEARCH_COLUMNS,
            page: async (cursor) => {
              const page = await ctx.store.searchTerms(auth.project.id, range, { limit: EXPORT_PAGE, cursor })
              return { items: page.items.map(searchTermView), nextCursor: page.nextCursor }
            },
            row: (term) => term,
          })
        }
        const page = await ctx.store.searchTerms(auth.project.id, range, { limit: query.limit, cursor: query.cursor })
        return c.json({
          searches: page.items.map(searchTermView),
          totalSearches: page.totalSearches,
          noResultSearches: page.noResultSearches,
          nextCursor: page.nextCursor,
        } satisfies SearchTermList)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/gaps`,
      tag: 'analytics',
      summary: 'Gaps: clusters of questions the docs did not answer, the most asked first',
      description:
        'Unanswered answers, answers rated down and searches that found nothing, grouped by what they ask. Statuses: open → in_progress (a fix job runs) → pr_open → merged → fixed, or back to open with a reason; dismissed.',
      guard: admin,
      params: PROJECT,
      query: GapsQuery,
      responses: { 200: { description: 'a page of gaps', schema: GapList } },
      handler: async (c, { auth, query }) => {
        await flushed()
        await ctx.analytics.gaps.advance(auth.project.id)
        const range = rangeOf(query, ctx.now())
        const page = await ctx.store.listGaps(auth.project.id, { range, status: query.status, limit: query.limit, cursor: query.cursor })
        const gaps = await Promise.all(page.items.map((item) => gapView(ctx, item.gap, range, item)))
        return c.json({ gaps, nextCursor: page.nextCursor } satisfies GapList)
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/gaps/{id}`,
      tag: 'analytics',
      summary: 'A gap, with its questions in the range',
      guard: admin,
      params: gapParams,
      query: AnalyticsRangeQuery,
      responses: { 200: { description: 'the gap', schema: Gap }, 404: NO_GAP },
      handler: async (c, { auth, query }) => {
        await flushed()
        await ctx.analytics.gaps.advance(auth.project.id)
        const gap = await getGapOr404(ctx, auth.project, c.req.param('id')!)
        return c.json(await gapView(ctx, gap, rangeOf(query, ctx.now())))
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/gaps/{id}/dismiss`,
      tag: 'analytics',
      summary: 'Dismiss a gap (not worth a fix); a later fix reopens it',
      guard: admin,
      params: gapParams,
      responses: {
        200: { description: 'the gap, dismissed', schema: Gap },
        404: NO_GAP,
        409: { description: 'a fix of the gap is under way' },
      },
      handler: async (c, { auth }) => {
        const gap = await dismissGap(ctx, auth.project, c.req.param('id')!)
        return c.json(await gapView(ctx, gap, rangeOf({}, ctx.now())))
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/gaps/{id}/reopen`,
      tag: 'analytics',
      summary: 'Reopen a dismissed gap (an open one stays open)',
      guard: admin,
      params: gapParams,
      responses: {
        200: { description: 'the gap, open', schema: Gap },
        404: NO_GAP,
        409: { description: 'the gap is neither dismissed nor open (a fix is under way or it is fixed)' },
      },
      handler: async (c, { auth }) => {
        const gap = await reopenGap(ctx, auth.project, c.req.param('id')!)
        return c.json(await gapView(ctx, gap, rangeOf({}, ctx.now())))
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/gaps/{id}/fix`,
      tag: 'analytics',
      summary: 'Fix a gap with the agent: a job whose prompt is built from the gap (and the writer’s text and page)',
      description:
        'The job changes the docs and opens a pull request; once it is merged and the served docs reach it, the questions are re-asked and the gap becomes fixed, or open again with the reason. With the built-in offline editor, `text` (the facts) is needed: it is appended as a section, in the readers’ words, to `page` or the closest page.',
      guard: write,
      params: gapParams,
      body: GapFixBody,
      responses: {
        200: { description: 'the agent job, active', schema: AgentJob },
        404: NO_GAP,
        409: { description: 'a fix of the gap is under way, or the project has no agent' },
        503: DOCS_UNAVAILABLE,
      },
      precheck: (c, { auth }) => fixableGap(ctx, auth.project, c.req.param('id')!),
      handler: async (c, { auth, body }) => c.json(jobView(await fixGap(ctx, auth.project, c.req.param('id')!, body))),
    }),
  ]
}
