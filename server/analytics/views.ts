import type { Conversation, ConversationSummary, FeedbackItem, SearchTerm, TimeBucket } from '../../shared/analytics.ts'
import type { DateRange, FeedbackEntry, SearchTermStats, TurnSummary, TurnWithFeedback } from '../store/types.ts'
import { bucketStarts } from './range.ts'

/** A recorded turn as the hosted API's conversation, with Docent's fields beside. */
export function conversationView(turn: TurnWithFeedback): Conversation {
  return {
    id: turn.id,
    timestamp: turn.askedAt.toISOString(),
    query: turn.query,
    response: turn.response,
    responseType: 'answer',
    sources: turn.sources.map(({ title, url }) => ({ title, url })),
    resolutionStatus: turn.resolution,
    queryCategory: turn.category,
    pageUrl: turn.pageUrl,
    threadId: turn.threadId,
    caller: turn.caller,
    model: turn.model,
    firstTokenMs: turn.firstTokenMs,
    totalMs: turn.totalMs,
    feedback: turn.feedback,
  }
}

/** The store's summary of a range with every bucket of it, empty ones as zeros (a chart's gaps are days without questions). */
export function summaryView(summary: TurnSummary, range: DateRange, bucket: TimeBucket): ConversationSummary {
  const counted = new Map(summary.buckets.map((entry) => [entry.start.getTime(), entry]))
  const buckets = bucketStarts(range, bucket)!.map((start) => {
    const { answered = 0, unanswered = 0 } = counted.get(start.getTime()) ?? {}
    return { start: start.toISOString().slice(0, 10), answered, unanswered }
  })
  const answered = summary.buckets.reduce((sum, entry) => sum + entry.answered, 0)
  const unanswered = summary.buckets.reduce((sum, entry) => sum + entry.unanswered, 0)
  return {
    conversations: answered + unanswered,
    answered,
    unanswered,
    bucket,
    buckets,
    categories: summary.categories,
    ratings: summary.ratings,
  }
}

export function feedbackView(entry: FeedbackEntry): FeedbackItem {
  return {
    id: entry.id,
    path: entry.path ?? '',
    comment: entry.comment ?? null,
    createdAt: entry.createdAt.toISOString(),
    source: 'thumbs_only',
    status: entry.status,
    helpful: entry.rating === 'up',
    contact: null,
    threadId: entry.threadId,
    messageId: entry.messageId,
  }
}

export function searchTermView(term: SearchTermStats): SearchTerm {
  return {
    searchQuery: term.query,
    hits: term.hits,
    ctr: term.hits === 0 ? 0 : Math.round(Math.min(1, term.clicks / term.hits) * 1000) / 1000,
    topClickedPage: term.topClickedPage,
    lastSearchedAt: term.lastSearchedAt.toISOString(),
    noResults: term.noResults,
    clicks: term.clicks,
  }
}

/** Columns of the CSV exports, in order (NDJSON lines carry the same fields). */
export const CONVERSATION_COLUMNS = [
  'id',
  'timestamp',
  'query',
  'response',
  'sources',
  'resolutionStatus',
  'queryCategory',
  'pageUrl',
  'threadId',
  'caller',
  'model',
  'firstTokenMs',
  'totalMs',
  'rating',
  'comment',
]
export const SEARCH_COLUMNS = ['searchQuery', 'hits', 'ctr', 'topClickedPage', 'lastSearchedAt', 'noResults', 'clicks']

/** A conversation as one CSV row: feedback flattened into rating and comment. */
export function conversationRow(conversation: Conversation): Record<string, unknown> {
  return { ...conversation, rating: conversation.feedback?.rating ?? null, comment: conversation.feedback?.comment ?? null }
}
