import type { Caller, FeedbackStatus, GapStatus, Resolution, TimeBucket } from '../../shared/analytics.ts'
import type { Source } from '../../shared/assistant.ts'
import type { FeedbackRecord, Page, PageRequest } from './types.ts'

// What analytics keeps: one row per answer (turn), per search, per reported click, per unanswered question (gap
// signal), and the gaps those questions are grouped into. Every list is bounded by a date range and paged.

/** `[from, to)`: from inclusive, to exclusive. */
export interface DateRange {
  from: Date
  to: Date
}

export interface TurnRecord {
  /** The answer's message id: what feedback refers to. */
  id: string
  projectId: string
  threadId: string
  /** When the reader asked. */
  askedAt: Date
  /** The reader's question as written. */
  query: string
  /** What was searched (the question made standalone for a follow-up). */
  searchQuery: string
  response: string
  sources: Source[]
  resolution: Resolution
  category: string | null
  /** `currentPath` as the widget sent it, and the full URL made from it and the site URL. */
  pagePath: string | null
  pageUrl: string | null
  caller: Caller
  /** As the client sent it (`anonymous` or a user id). */
  fp: string
  model: string
  firstTokenMs: number | null
  totalMs: number
}

export interface TurnWithFeedback extends TurnRecord {
  feedback: { rating: 'up' | 'down'; comment: string | null } | null
}

export interface SearchRecord {
  id: string
  projectId: string
  at: Date
  /** Normalized: lower case, spaces collapsed, no control characters (so every store can group by it). */
  query: string
  /** Null when the widget did not say how many results its search found. */
  resultCount: number | null
  topScore: number | null
  caller: Caller
  /** Which door it came through: the search endpoint, the widget's settled search, an MCP tool. */
  origin: 'search' | 'widget' | 'mcp'
}

export interface ClickRecord {
  id: string
  projectId: string
  at: Date
  kind: 'search_result_click' | 'source_click'
  /** Normalized like SearchRecord.query; null for source clicks. */
  query: string | null
  path: string
  position: number | null
  threadId: string | null
  messageId: string | null
}

export type GapSignalKind = 'unanswered' | 'rated_down' | 'no_results'

/** One reader question the docs did not answer: an unanswered turn, a turn rated down, or a search that found nothing. */
export interface GapSignalRecord {
  /** The turn's or the search's id: one question is one signal, however many reasons it has. */
  id: string
  projectId: string
  at: Date
  kind: GapSignalKind
  query: string
  /** The question's meaningful terms (stemmed), what clustering compares. */
  terms: string[]
  /** The sections that came nearest (the answer's sources), best first. */
  sections: Source[]
  pageUrl: string | null
  gapId: string | null
}

export interface GapSection extends Source {
  /** How many of the gap's questions had this section among their nearest. */
  count: number
}

export interface GapMerge {
  commit: string
  at: Date
  /** The docs revision served when the merge was seen: a later, different revision means the docs moved past it. */
  revisionAtMerge: string | null
}

export interface GapRecord {
  id: string
  projectId: string
  title: string
  status: GapStatus
  reason: string | null
  jobId: string | null
  /** Signature: how many member questions carry each term (the most common terms only). */
  terms: Record<string, number>
  /** The most common nearest sections, by count. */
  sections: GapSection[]
  memberCount: number
  merge: GapMerge | null
  verifiedAt: Date | null
  firstSeenAt: Date
  lastSeenAt: Date
  createdAt: Date
  updatedAt: Date
}

/** A gap with what its questions in a date range add up to. */
export interface GapInRange {
  gap: GapRecord
  count: number
  firstSeenAt: Date
  lastSeenAt: Date
}

export interface AnalyticsBatch {
  turns?: TurnRecord[]
  searches?: SearchRecord[]
  clicks?: ClickRecord[]
  /** Inserted unless a signal with the same id exists (a turn unanswered and also rated down is one signal). */
  signals?: GapSignalRecord[]
}

export interface FeedbackEntry extends FeedbackRecord {
  id: string
  projectId: string
  status: FeedbackStatus
  /** The page the reader asked from, else the page of the answer's best source (`/path`); null when unknown. */
  path: string | null
}

export interface FeedbackFilter {
  range: DateRange
  status?: FeedbackStatus
}

export interface SearchTermStats {
  query: string
  hits: number
  noResults: number
  clicks: number
  topClickedPage: string | null
  lastSearchedAt: Date
}

export interface SearchTermsPage extends Page<SearchTermStats> {
  totalSearches: number
  noResultSearches: number
}

/** What a range adds up to: its turns counted by time bucket and by category, and the ratings given in it. */
export interface TurnSummary {
  /** Turns per bucket (`start`: the bucket's first instant, UTC), oldest first; buckets with no turn are left out. */
  buckets: Array<{ start: Date; answered: number; unanswered: number }>
  /** Turns by category, the most first (ties by name, no category last), at most SUMMARY_CATEGORIES. */
  categories: Array<{ name: string | null; count: number }>
  /** Feedback given in the range (as listFeedback reads it), by rating. */
  ratings: { up: number; down: number }
}

export interface GapListRequest extends PageRequest {
  range: DateRange
  status?: GapStatus
}

/** The analytics part of the Store; every adapter implements it and passes the conformance suite. */
export interface AnalyticsStore {
  /** Writes a batch of analytics rows (one transaction where the store has them). */
  recordAnalytics(batch: AnalyticsBatch): Promise<void>
  getTurn(projectId: string, id: string): Promise<TurnRecord | null>
  /** Turns asked in the range, newest first (by askedAt, then id), with their feedback. */
  listTurns(projectId: string, range: DateRange, page: PageRequest): Promise<Page<TurnWithFeedback>>
  /** The range's turns counted in the store (by `bucket` of askedAt, UTC, and by category) and its ratings. */
  summarizeTurns(projectId: string, range: DateRange, bucket: TimeBucket): Promise<TurnSummary>
  /** Answers by caller in the range, plus searches by callers other than web and api (MCP tools). */
  countCallers(projectId: string, range: DateRange): Promise<Record<Caller, number>>

  /** Feedback given in the range, newest first. */
  listFeedback(projectId: string, filter: FeedbackFilter, page: PageRequest): Promise<Page<FeedbackEntry>>
  /** Feedback in the range grouped by page, most feedback first (ties by path). */
  feedbackByPage(
    projectId: string,
    filter: FeedbackFilter,
    limit: number,
  ): Promise<{ items: Array<{ path: string; up: number; down: number }>; hasMore: boolean }>
  /** Moves feedback through review; null when there is no such feedback in the project. */
  setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus): Promise<FeedbackEntry | null>

  /** Searches in the range grouped by normalized query, most searched first (ties by query), with their clicks. */
  searchTerms(projectId: string, range: DateRange, page: PageRequest): Promise<SearchTermsPage>

  /** Signals not yet in a gap, oldest first. */
  listUnassignedSignals(projectId: string, limit: number): Promise<GapSignalRecord[]>
  /** Puts signals into a gap; a signal already in a gap stays where it is. */
  assignSignals(gapId: string, signalIds: string[]): Promise<void>
  /** A gap's signals in the range, newest first, at most `limit`. */
  listGapSignals(projectId: string, gapId: string, range: DateRange, limit: number): Promise<GapSignalRecord[]>
  insertGap(gap: GapRecord): Promise<void>
  getGap(projectId: string, id: string): Promise<GapRecord | null>
  /** Applies `patch`; when `ifStatusIn` is given and the gap's status is not in it, nothing changes and null is returned. */
  updateGap(
    id: string,
    patch: Partial<Omit<GapRecord, 'id' | 'projectId' | 'createdAt'>>,
    options?: { ifStatusIn?: GapStatus[] },
  ): Promise<GapRecord | null>
  /** Gaps of the project, most recently seen first, optionally only those in some statuses. */
  listGapRecords(projectId: string, options: { statuses?: GapStatus[]; limit: number }): Promise<GapRecord[]>
  /** Gaps with questions in the range, the most questions first (ties by id), optionally of one status. */
  listGaps(projectId: string, request: GapListRequest): Promise<Page<GapInRange>>

  /**
   * Retention: deletes turns, searches, clicks and signals from before `before`, threads (with their messages and
   * feedback) last updated before it, and open or dismissed gaps left with no questions. Returns the rows deleted.
   */
  purgeAnalytics(before: Date): Promise<number>
}
