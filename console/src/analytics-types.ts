// The analytics API's shapes, as ../shared/API.md (Analytics) and issue 16 define them. The analytics branch is
// writing `shared/analytics.ts` with the zod schemas at the same time; at merge, these types are replaced by the
// types inferred there. Fields marked "extra" are ones the screens use when the server sends them.

export interface Conversation {
  id: string
  timestamp: string
  query: string
  response: string
  responseType?: 'answer' | 'clarifying_question'
  sources: Array<{ title: string; url: string }>
  resolutionStatus: 'answered' | 'unanswered'
  queryCategory: string | null
  pageUrl: string | null
  /** extra: the thread the turn belongs to (its transcript). */
  threadId?: string
  /** extra: the reader's rating of this answer. */
  rating?: 'up' | 'down' | null
  /** extra: web (docs site), api or other (MCP). */
  caller?: 'web' | 'api' | 'other'
}

export interface ConversationPage {
  conversations: Conversation[]
  nextCursor: string | null
  hasMore: boolean
}

export interface Thread {
  threadId: string
  createdAt: string
  messages: Array<{ id: string; role: 'user' | 'assistant'; content: string; createdAt: string }>
}

export interface CallerStats {
  web: number
  api: number
  other: number
  total: number
}

export type FeedbackStatus = 'pending' | 'in_progress' | 'resolved' | 'dismissed'

export interface Feedback {
  id: string
  path: string
  comment: string | null
  createdAt: string
  source: 'code_snippet' | 'contextual' | 'agent' | 'thumbs_only'
  status: FeedbackStatus
  helpful: boolean
  contact: string | null
}

export interface FeedbackPage {
  feedback: Feedback[]
  nextCursor: string | null
  hasMore: boolean
}

export interface FeedbackByPage {
  feedback: Array<{ path: string; thumbsUp: number; thumbsDown: number; code: number; total: number }>
  hasMore: boolean
}

export interface SearchTerm {
  searchQuery: string
  hits: number
  ctr: number
  topClickedPage: string | null
  lastSearchedAt: string
  /** extra: results the search found (0: a term the docs have nothing for). */
  results?: number
}

export interface SearchPage {
  searches: SearchTerm[]
  totalSearches: number
  nextCursor: string | null
}

export type GapStatus = 'open' | 'in_progress' | 'pr_open' | 'merged' | 'fixed' | 'dismissed'

export interface Gap {
  id: string
  title: string
  status: GapStatus
  count: number
  questions: Array<{ query: string; count: number; lastAskedAt: string }>
  /** Where readers were when they asked. */
  pages: string[]
  /** The sections that came nearest. */
  closest: Array<{ title: string; url: string }>
  firstSeenAt: string
  lastSeenAt: string
  jobId: string | null
  prLink: string | null
  /** extra: why a gap went back to open after a fix (the re-asked questions were still unanswered). */
  reason?: string | null
}

export interface GapPage {
  gaps: Gap[]
  nextCursor: string | null
}

/** `POST .../gaps/{id}/fix`. */
export interface FixGapBody {
  text?: string
  page?: string
  prompt?: string
}
