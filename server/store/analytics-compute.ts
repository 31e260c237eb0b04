import type { TimeBucket } from '../../shared/analytics.ts'
import type {
  ClickRecord,
  DateRange,
  FeedbackEntry,
  GapInRange,
  GapListRequest,
  GapRecord,
  GapSignalRecord,
  SearchRecord,
  SearchTermStats,
  SearchTermsPage,
  TurnRecord,
  TurnSummary,
} from './analytics-types.ts'
import { type CursorScope, decodeRankCursor, encodeRankCursor, ranksAfter } from './cursor.ts'
import type { Page, PageRequest } from './types.ts'

// Analytics aggregation in JavaScript, for the stores without SQL (memory, Deno KV): rows are fed in one at a time, so
// a store can stream them from its range scan. The SQL store does the same in SQL.

/** Past this many distinct keys an accumulator counts new rows in its totals but does not list them: memory stays bounded. */
export const MAX_DISTINCT = 100_000

export const inRange = (at: Date, range: DateRange) => at.getTime() >= range.from.getTime() && at.getTime() < range.to.getTime()

/** A summary lists this many categories at most: they are the docs' navigation groups, a few dozen at most in practice. */
export const SUMMARY_CATEGORIES = 100

const DAY_MS = 24 * 60 * 60 * 1000

/**
 * The first instant of the bucket `at` falls in, in UTC, as PostgreSQL's `date_trunc(bucket, at, 'UTC')` finds it
 * (weeks start on Monday). Date setters rather than `Date.UTC`, which reads years 0 to 99 as 1900 to 1999.
 */
export function bucketStart(at: Date, bucket: TimeBucket): Date {
  const day = Math.floor(at.getTime() / DAY_MS) * DAY_MS
  const start = new Date(day)
  if (bucket === 'week') return new Date(day - ((start.getUTCDay() + 6) % 7) * DAY_MS)
  if (bucket === 'month' || bucket === 'year') start.setUTCDate(1)
  if (bucket === 'year') start.setUTCMonth(0)
  return start
}

/** Turns counted by bucket and category, and ratings by kind, as the SQL store's summary counts them. */
export class TurnSummaryAccumulator {
  private buckets = new Map<number, { answered: number; unanswered: number }>()
  private categories = new Map<string | null, number>()
  private ratings = { up: 0, down: 0 }

  constructor(private readonly bucket: TimeBucket) {}

  addTurn(turn: Pick<TurnRecord, 'askedAt' | 'resolution' | 'category'>) {
    const start = bucketStart(turn.askedAt, this.bucket).getTime()
    let counts = this.buckets.get(start)
    if (!counts) this.buckets.set(start, (counts = { answered: 0, unanswered: 0 }))
    counts[turn.resolution]++
    if (this.categories.has(turn.category) || this.categories.size < MAX_DISTINCT)
      this.categories.set(turn.category, (this.categories.get(turn.category) ?? 0) + 1)
  }

  addRating(rating: 'up' | 'down') {
    this.ratings[rating]++
  }

  result(): TurnSummary {
    return {
      buckets: [...this.buckets.entries()].sort(([a], [b]) => a - b).map(([start, counts]) => ({ start: new Date(start), ...counts })),
      categories: topCategories([...this.categories.entries()].map(([name, count]) => ({ name, count }))),
      ratings: { ...this.ratings },
    }
  }
}

/** The SUMMARY_CATEGORIES most asked categories, the most first; ties by name, no category after every name. */
export function topCategories(categories: TurnSummary['categories']): TurnSummary['categories'] {
  const order = (name: string | null) => (name === null ? 1 : 0)
  return categories
    .sort((a, b) => b.count - a.count || order(a.name) - order(b.name) || (a.name! < b.name! ? -1 : a.name! > b.name! ? 1 : 0))
    .slice(0, SUMMARY_CATEGORIES)
}

/** The page a piece of feedback is about: where the reader asked from, else the answer's best source. */
export function feedbackPath(turn: Pick<TurnRecord, 'pagePath' | 'sources'> | null): string | null {
  if (!turn) return null
  if (turn.pagePath) return turn.pagePath
  const best = turn.sources[0]?.path
  return best ? `/${best.replace(/^\/+/, '')}` : null
}

interface TermCounts {
  hits: number
  noResults: number
  last: Date
  clicks: Map<string, number>
}

/** Searches grouped by query with their clicks: most searched first, then by query. */
export class SearchTermAccumulator {
  private terms = new Map<string, TermCounts>()
  private total = 0
  private noResults = 0

  addSearch(search: SearchRecord) {
    this.total++
    if (search.resultCount === 0) this.noResults++
    let term = this.terms.get(search.query)
    if (!term) {
      if (this.terms.size >= MAX_DISTINCT) return
      this.terms.set(search.query, (term = { hits: 0, noResults: 0, last: search.at, clicks: new Map() }))
    }
    term.hits++
    if (search.resultCount === 0) term.noResults++
    if (search.at > term.last) term.last = search.at
  }

  /** Clicks count only for queries that were searched in the range; call after every search was added. */
  addClick(click: ClickRecord) {
    if (click.kind !== 'search_result_click' || click.query === null) return
    const term = this.terms.get(click.query)
    if (!term || (!term.clicks.has(click.path) && term.clicks.size >= 1000)) return
    term.clicks.set(click.path, (term.clicks.get(click.path) ?? 0) + 1)
  }

  async page(scope: CursorScope, request: PageRequest): Promise<SearchTermsPage> {
    const after = await decodeRankCursor(scope, request.cursor)
    const ranked = [...this.terms.entries()]
      .map(([query, term]) => ({ query, term }))
      .filter(({ query, term }) => !after || ranksAfter({ count: term.hits, key: query }, after))
      .sort((a, b) => b.term.hits - a.term.hits || (a.query < b.query ? -1 : a.query > b.query ? 1 : 0))
    const slice = ranked.slice(0, request.limit)
    const items = slice.map(({ query, term }): SearchTermStats => {
      let clicks = 0
      let top: [string, number] | null = null
      for (const [path, n] of term.clicks) {
        clicks += n
        if (!top || n > top[1] || (n === top[1] && path < top[0])) top = [path, n]
      }
      return { query, hits: term.hits, noResults: term.noResults, clicks, topClickedPage: top?.[0] ?? null, lastSearchedAt: term.last }
    })
    const last = items.at(-1)
    return {
      items,
      nextCursor: ranked.length > request.limit && last ? await encodeRankCursor(scope, last.hits, last.query) : null,
      totalSearches: this.total,
      noResultSearches: this.noResults,
    }
  }
}

/** Feedback grouped by page: most feedback first, then by path. */
export class FeedbackByPageAccumulator {
  private pages = new Map<string, { up: number; down: number }>()

  add(entry: Pick<FeedbackEntry, 'path' | 'rating'>) {
    const path = entry.path ?? ''
    let page = this.pages.get(path)
    if (!page) {
      if (this.pages.size >= MAX_DISTINCT) return
      this.pages.set(path, (page = { up: 0, down: 0 }))
    }
    if (entry.rating === 'up') page.up++
    else page.down++
  }

  result(limit: number) {
    const all = [...this.pages.entries()]
      .map(([path, counts]) => ({ path, ...counts }))
      .sort((a, b) => b.up + b.down - (a.up + a.down) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    return { items: all.slice(0, limit), hasMore: all.length > limit }
  }
}

/** Signals in a range counted per gap. */
export class GapCountAccumulator {
  private counts = new Map<string, { count: number; first: Date; last: Date }>()

  add(signal: GapSignalRecord) {
    if (!signal.gapId) return
    const known = this.counts.get(signal.gapId)
    if (!known) {
      if (this.counts.size < MAX_DISTINCT) this.counts.set(signal.gapId, { count: 1, first: signal.at, last: signal.at })
      return
    }
    known.count++
    if (signal.at < known.first) known.first = signal.at
    if (signal.at > known.last) known.last = signal.at
  }

  /** The page of gaps, biggest first; `gapOf` reads a gap record (null when gone or filtered out). */
  async page(scope: CursorScope, request: GapListRequest, gapOf: (id: string) => Promise<GapRecord | null>): Promise<Page<GapInRange>> {
    const after = await decodeRankCursor(scope, request.cursor)
    const ranked = [...this.counts.entries()]
      .filter(([id, c]) => !after || ranksAfter({ count: c.count, key: id }, after))
      .sort(([a, ca], [b, cb]) => cb.count - ca.count || (a < b ? -1 : a > b ? 1 : 0))
    const items: GapInRange[] = []
    let more = false
    for (const [id, counts] of ranked) {
      const gap = await gapOf(id)
      if (!gap || (request.status && gap.status !== request.status)) continue
      if (items.length === request.limit) {
        more = true
        break
      }
      items.push({ gap, count: counts.count, firstSeenAt: counts.first, lastSeenAt: counts.last })
    }
    const last = items.at(-1)
    return { items, nextCursor: more && last ? await encodeRankCursor(scope, last.count, last.gap.id) : null }
  }
}
