import { z } from 'zod'
import { AgentJob } from './agent.ts'

// The analytics API (admin key), under `/v1/analytics/{projectId}`. Paths, query parameters and field names follow the
// hosted service's analytics API (API.md, Analytics); fields marked "Docent" are ours, added beside the hosted ones.

export const Resolution = z.enum(['answered', 'unanswered']).meta({ id: 'Resolution' })
export type Resolution = z.infer<typeof Resolution>

/** Where an assistant query came from: a docs site in a browser, a server calling the API, anything else (MCP tools). */
export const Caller = z.enum(['web', 'api', 'other']).meta({ id: 'Caller' })
export type Caller = z.infer<typeof Caller>

export const FeedbackStatus = z.enum(['pending', 'in_progress', 'resolved', 'dismissed']).meta({ id: 'FeedbackStatus' })
export type FeedbackStatus = z.infer<typeof FeedbackStatus>

/** The hosted service's feedback sources; Docent's answer thumbs are `thumbs_only`. */
export const FeedbackSource = z.enum(['code_snippet', 'contextual', 'agent', 'thumbs_only']).meta({ id: 'FeedbackSource' })
export type FeedbackSource = z.infer<typeof FeedbackSource>

export const GapStatus = z.enum(['open', 'in_progress', 'pr_open', 'merged', 'fixed', 'dismissed']).meta({ id: 'GapStatus' })
export type GapStatus = z.infer<typeof GapStatus>

export const ExportFormat = z.enum(['json', 'csv', 'ndjson'])
export type ExportFormat = z.infer<typeof ExportFormat>

const dateOrDateTime = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: 'must be an ISO 8601 date (2026-03-01) or date-time (2026-03-01T12:00:00Z)',
  })
  .describe('ISO 8601 date or date-time; a date-time without an offset is UTC')

/** `dateFrom` / `dateTo`: a date means the whole day (UTC); the default is the last 30 days. */
const range = {
  dateFrom: dateOrDateTime.optional().describe('start of the range (inclusive); default: 30 days before dateTo'),
  dateTo: dateOrDateTime.optional().describe('end of the range (inclusive; a date includes the whole day); default: now'),
}
const limit = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback)
// A /searches cursor holds the last term: 500 characters of up to 3 bytes each, base64 (2,000 characters and more).
const cursor = z.string().max(4096).optional().describe('nextCursor of the previous page')
const format = ExportFormat.default('json').describe('json (a page), or csv / ndjson: every row of the range, streamed')

export const AnalyticsRangeQuery = z.object(range)
export type AnalyticsRangeQuery = z.infer<typeof AnalyticsRangeQuery>

export const ConversationsQuery = z.object({ ...range, limit: limit(20, 100), cursor, format })
export type ConversationsQuery = z.infer<typeof ConversationsQuery>

export const AnalyticsSource = z.object({ title: z.string(), url: z.string() })

/** How the summary counts time (UTC): days, ISO weeks (from Monday), calendar months or years. */
export const TimeBucket = z.enum(['day', 'week', 'month', 'year']).meta({ id: 'TimeBucket' })
export type TimeBucket = z.infer<typeof TimeBucket>

/** Docent: what every conversation of a range adds up to, counted on the server (the console's Overview). */
export const ConversationSummary = z
  .object({
    conversations: z.number().int().describe('every conversation (answer) of the range'),
    answered: z.number().int(),
    unanswered: z.number().int(),
    bucket: TimeBucket.describe('the span of each entry of `buckets`: the finest that draws the range in at most 180 entries'),
    buckets: z
      .array(
        z.object({
          start: z.iso.date().describe('the first day of the bucket (UTC): the day, a Monday, the 1st of a month, 1 January'),
          answered: z.number().int(),
          unanswered: z.number().int(),
        }),
      )
      .describe('every bucket the range touches, oldest first, empty ones included'),
    categories: z
      .array(z.object({ name: z.string().nullable().describe('null: no category'), count: z.number().int() }))
      .describe('conversations by queryCategory, the most first (at most 100)'),
    ratings: z
      .object({ up: z.number().int(), down: z.number().int() })
      .describe("readers' ratings of answers, given in the range (as /feedback lists them)"),
  })
  .meta({ id: 'ConversationSummary' })
export type ConversationSummary = z.infer<typeof ConversationSummary>

export const Conversation = z
  .object({
    id: z.string().describe('the answer message id (what feedback refers to)'),
    timestamp: z.iso.datetime().describe("the reader's message time"),
    query: z.string().describe("the reader's question"),
    response: z.string(),
    responseType: z.enum(['answer', 'clarifying_question']).optional(),
    sources: z.array(AnalyticsSource),
    resolutionStatus: Resolution,
    queryCategory: z.string().nullable().describe("the docs.json navigation group of the answer's best source"),
    pageUrl: z.string().nullable().describe('the full URL of the page the reader asked from'),
    threadId: z.string().describe('Docent: the thread of this turn'),
    caller: Caller.describe('Docent: web (a browser on an allowed origin), api (no Origin) or other'),
    model: z.string().describe('Docent: the model that answered'),
    firstTokenMs: z.number().int().nullable().describe('Docent: time from the question to the first answer text'),
    totalMs: z.number().int().describe('Docent: time from the question to the end of the answer'),
    feedback: z
      .object({ rating: z.enum(['up', 'down']), comment: z.string().nullable() })
      .nullable()
      .describe("Docent: the reader's rating of this answer"),
  })
  .meta({ id: 'Conversation' })
export type Conversation = z.infer<typeof Conversation>

export const ConversationList = z
  .object({ conversations: z.array(Conversation), nextCursor: z.string().nullable(), hasMore: z.boolean() })
  .meta({ id: 'ConversationList' })
export type ConversationList = z.infer<typeof ConversationList>

export const AnalyticsThread = z
  .object({
    threadId: z.string(),
    createdAt: z.iso.datetime(),
    messages: z.array(z.object({ id: z.string(), role: z.enum(['user', 'assistant']), content: z.string(), createdAt: z.iso.datetime() })),
  })
  .meta({ id: 'AnalyticsThread' })
export type AnalyticsThread = z.infer<typeof AnalyticsThread>

export const CallerStats = z
  .object({
    web: z.number().int().describe('answers asked from a docs site (a browser on an allowed origin)'),
    api: z.number().int().describe('answers asked by API calls (no Origin)'),
    other: z.number().int().describe('anything else: searches by AI tools over MCP'),
    total: z.number().int(),
  })
  .meta({ id: 'CallerStats' })
export type CallerStats = z.infer<typeof CallerStats>

const feedbackFilters = {
  source: FeedbackSource.optional(),
  status: FeedbackStatus.optional(),
}

export const FeedbackQuery = z.object({ ...range, ...feedbackFilters, limit: limit(20, 100), cursor })
export type FeedbackQuery = z.infer<typeof FeedbackQuery>

export const FeedbackItem = z
  .object({
    id: z.string(),
    path: z.string().describe('the page the reader was on, else the page of the answer’s best source; "" when unknown'),
    comment: z.string().nullable(),
    createdAt: z.iso.datetime(),
    source: FeedbackSource,
    status: FeedbackStatus,
    helpful: z.boolean(),
    contact: z.string().nullable().describe('always null: Docent does not ask readers for contact details'),
    threadId: z.string().describe('Docent: the thread of the rated answer'),
    messageId: z.string().describe('Docent: the rated answer (a conversation id)'),
  })
  .meta({ id: 'FeedbackItem' })
export type FeedbackItem = z.infer<typeof FeedbackItem>

export const FeedbackList = z
  .object({ feedback: z.array(FeedbackItem), nextCursor: z.string().nullable(), hasMore: z.boolean() })
  .meta({ id: 'FeedbackList' })
export type FeedbackList = z.infer<typeof FeedbackList>

export const FeedbackByPageQuery = z.object({ ...range, ...feedbackFilters, limit: limit(20, 100) })
export type FeedbackByPageQuery = z.infer<typeof FeedbackByPageQuery>

export const FeedbackByPage = z
  .object({
    feedback: z.array(
      z.object({
        path: z.string(),
        thumbsUp: z.number().int(),
        thumbsDown: z.number().int(),
        code: z.number().int().describe('code snippet feedback (always 0 in Docent)'),
        total: z.number().int(),
      }),
    ),
    hasMore: z.boolean(),
  })
  .meta({ id: 'FeedbackByPage' })
export type FeedbackByPage = z.infer<typeof FeedbackByPage>

export const FeedbackPatchBody = z.object({ status: FeedbackStatus }).meta({ id: 'FeedbackPatchBody' })
export type FeedbackPatchBody = z.infer<typeof FeedbackPatchBody>

export const SearchesQuery = z.object({ ...range, limit: limit(20, 100), cursor, format })
export type SearchesQuery = z.infer<typeof SearchesQuery>

export const SearchTerm = z
  .object({
    searchQuery: z.string().describe('the search, lower-cased with spaces collapsed'),
    hits: z.number().int().describe('how many times it was searched'),
    ctr: z.number().min(0).max(1).describe('result clicks per search, at most 1'),
    topClickedPage: z.string().nullable(),
    lastSearchedAt: z.iso.datetime(),
    noResults: z.number().int().describe('Docent: searches of it that found nothing'),
    clicks: z.number().int().describe('Docent: result clicks the widget reported for it'),
  })
  .meta({ id: 'SearchTerm' })
export type SearchTerm = z.infer<typeof SearchTerm>

export const SearchTermList = z
  .object({
    searches: z.array(SearchTerm),
    totalSearches: z.number().int(),
    noResultSearches: z.number().int().describe('Docent: searches in the range that found nothing'),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: 'SearchTermList' })
export type SearchTermList = z.infer<typeof SearchTermList>

// Gaps (Docent): clusters of questions the docs did not answer, and their way to a fix.

export const GapsQuery = z.object({ ...range, status: GapStatus.optional(), limit: limit(20, 100), cursor })
export type GapsQuery = z.infer<typeof GapsQuery>

export const Gap = z
  .object({
    id: z.string(),
    title: z.string().describe('the question readers asked most'),
    status: GapStatus,
    reason: z.string().nullable().describe('why the gap is open again (a failed job, a closed PR, a failed verification...)'),
    count: z.number().int().describe('questions in the range: unanswered, rated down, or searches with no result'),
    questions: z.array(z.object({ query: z.string(), count: z.number().int(), lastAskedAt: z.iso.datetime() })),
    pages: z.array(z.string()).describe('the pages readers asked from'),
    closest: z.array(AnalyticsSource).describe('the sections that came nearest to the questions'),
    firstSeenAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime(),
    jobId: z.string().nullable(),
    prLink: z.string().nullable(),
    verifiedAt: z.iso.datetime().nullable().describe('when the questions were last re-asked after a merge'),
    dismissedAt: z.iso
      .datetime()
      .nullable()
      .optional()
      .describe('extra: when a dismissed gap was dismissed (questions asked since still join it; reopen to act on them)'),
  })
  .meta({ id: 'Gap' })
export type Gap = z.infer<typeof Gap>

export const GapList = z.object({ gaps: z.array(Gap), nextCursor: z.string().nullable() }).meta({ id: 'GapList' })
export type GapList = z.infer<typeof GapList>

export const GapFixBody = z
  .object({
    text: z.string().trim().min(1).max(20_000).optional().describe('the facts a writer supplies; the agent writes them into the docs'),
    page: z.string().trim().min(1).max(500).optional().describe('the page to change (default: the closest page)'),
    prompt: z.string().trim().min(1).max(5_000).optional().describe('more instructions for the agent'),
  })
  .meta({ id: 'GapFixBody' })
export type GapFixBody = z.infer<typeof GapFixBody>

export const GapFixResponse = AgentJob

// Merging a local pull request (`POST /v2/agent/{projectId}/job/{id}/merge`).

export const MergeResult = z
  .object({
    job: AgentJob,
    merge: z.object({
      method: z.enum(['fast-forward', 'merge-commit', 'already-merged']),
      commit: z.string().describe('the commit the base branch points to now'),
      base: z.string(),
      branch: z.string(),
      mergedAt: z.iso.datetime(),
    }),
  })
  .meta({ id: 'MergeResult' })
export type MergeResult = z.infer<typeof MergeResult>

export const WebhookResult = z
  .object({
    event: z.string().describe('the event as the host named it'),
    actions: z.array(z.string()).describe('what Docent did with it (nothing for events it does not use)'),
    runs: z.number().int().describe('automation runs it started'),
  })
  .meta({ id: 'WebhookResult' })
export type WebhookResult = z.infer<typeof WebhookResult>
