import type { AnalyticsRangeQuery, TimeBucket } from '../../shared/analytics.ts'
import { DocentError } from '../../shared/errors.ts'
import { bucketStart } from '../store/analytics-compute.ts'
import type { DateRange } from '../store/types.ts'

const DAY_MS = 24 * 60 * 60 * 1000
/** The range when none is given: the last 30 days, as the hosted API does. */
const DEFAULT_DAYS = 30

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value)
/** A date-time without an offset is UTC (the schema allows it; JavaScript would read it as local time). */
const instant = (value: string) => new Date(/(?:[zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`)

/**
 * The instants a range may span: years 1 to 9999. PostgreSQL has no year 0, and the six-digit years `toISOString`
 * writes from year 10000 on (`+010000-01-01T…`) are no date to it.
 */
const EARLIEST = Date.parse('0001-01-01T00:00:00Z')
const LATEST = Date.parse('9999-12-31T23:59:59.999Z')

/**
 * `dateFrom`/`dateTo` as a half-open range `[from, to)`: a date covers its whole day (UTC), a date-time is the
 * instant itself, both ends inclusive as written. Defaults: `to` now, `from` 30 days before `to` (year 1 at the
 * earliest).
 */
export function rangeOf(query: AnalyticsRangeQuery, now: Date): DateRange {
  const asked = query.dateTo
    ? isDate(query.dateTo)
      ? Date.parse(`${query.dateTo}T00:00:00Z`) + DAY_MS
      : instant(query.dateTo).getTime() + 1
    : now.getTime() + 1
  // "Until 9999-12-31" means until the end: the range stops at the last instant a store holds (less its last
  // millisecond, which nothing was recorded at).
  const to = new Date(Math.min(asked, LATEST))
  const from = query.dateFrom
    ? isDate(query.dateFrom)
      ? new Date(`${query.dateFrom}T00:00:00Z`)
      : instant(query.dateFrom)
    : new Date(Math.max(EARLIEST, to.getTime() - DEFAULT_DAYS * DAY_MS))
  if (Number.isNaN(to.getTime())) throw new DocentError('invalid_request', 'dateTo: not a valid date')
  if (Number.isNaN(from.getTime())) throw new DocentError('invalid_request', 'dateFrom: not a valid date')
  // `to` is past the last instant asked for: a dateTo at or before year 1's start leaves nothing of year 1 in the range.
  if (to.getTime() <= EARLIEST) throw new DocentError('invalid_request', 'dateTo: must be 0001-01-01 or later')
  if (from.getTime() < EARLIEST) throw new DocentError('invalid_request', 'dateFrom: must be 0001-01-01 or later')
  if (from.getTime() >= to.getTime()) throw new DocentError('invalid_request', 'dateFrom: must be before dateTo')
  return { from, to }
}

/** The range as file-name text: `2026-03-01_2026-03-31`. */
export function rangeLabel(range: DateRange): string {
  return `${range.from.toISOString().slice(0, 10)}_${new Date(range.to.getTime() - 1).toISOString().slice(0, 10)}`
}

/** Every date a store can hold (Postgres takes years up to 294276; JavaScript's largest date it does not). */
export const allTime = (): DateRange => ({ from: new Date(0), to: new Date('9999-12-31T00:00:00Z') })

/** A chart of a range has at most this many bars: about 4 px each on a phone. */
export const MAX_BUCKETS = 180
const BUCKETS: TimeBucket[] = ['day', 'week', 'month', 'year']

/** The start of the bucket after the one that starts at `start`. */
function nextBucket(start: Date, bucket: TimeBucket): Date {
  const next = new Date(start)
  if (bucket === 'day') next.setUTCDate(next.getUTCDate() + 1)
  else if (bucket === 'week') next.setUTCDate(next.getUTCDate() + 7)
  else if (bucket === 'month') next.setUTCMonth(next.getUTCMonth() + 1)
  else next.setUTCFullYear(next.getUTCFullYear() + 1)
  return next
}

/** The starts of every bucket the range touches, oldest first; null past `limit` of them. */
export function bucketStarts(range: DateRange, bucket: TimeBucket, limit = Number.POSITIVE_INFINITY): Date[] | null {
  const starts: Date[] = []
  for (let start = bucketStart(range.from, bucket); start < range.to; start = nextBucket(start, bucket)) {
    if (starts.length === limit) return null
    starts.push(start)
  }
  return starts
}

/**
 * The finest bucket that counts the range in at most MAX_BUCKETS: days up to about 6 months, then weeks, months, years.
 * A range of more than 180 years has none and is refused, naming the earliest `dateFrom` that fits: counted anyway it
 * was 9,999 buckets (510 KB) for years 1 to 9999, and clamped it would count other conversations than the range asked.
 */
export function bucketFor(range: DateRange): TimeBucket {
  const bucket = BUCKETS.find((each) => bucketStarts(range, each, MAX_BUCKETS) !== null)
  if (bucket) return bucket
  const year = (n: number) => String(n).padStart(4, '0')
  const lastYear = new Date(range.to.getTime() - 1).getUTCFullYear()
  throw new DocentError(
    'invalid_request',
    `dateFrom: a summary counts at most ${MAX_BUCKETS} years (${MAX_BUCKETS} buckets of a year); for a range ending in ${year(lastYear)}, start on ${year(lastYear - MAX_BUCKETS + 1)}-01-01 or later`,
  )
}
