/** The date range of the analytics screens, kept in the URL (`?range=30d` or `?from=2026-01-01&to=2026-01-31`). */
export interface DateRange {
  from: string
  to: string
  /** `7d`, `30d`, `90d`, or `custom`. */
  preset: string
}

const DAY = 86_400_000
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10)

export function rangeFrom(search: URLSearchParams, now = Date.now()): DateRange {
  const from = search.get('from')
  const to = search.get('to')
  if (from && to && /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to)) {
    // Picked the other way round (a From after the To), it is the same range, not an error on every card.
    return from <= to ? { from, to, preset: 'custom' } : { from: to, to: from, preset: 'custom' }
  }
  const preset = ['7d', '30d', '90d'].includes(search.get('range') ?? '') ? search.get('range')! : '30d'
  const days = Number.parseInt(preset, 10)
  return { from: isoDay(now - (days - 1) * DAY), to: isoDay(now), preset }
}

/** The query the analytics API takes: whole days, `to` inclusive. */
export function rangeQuery(range: DateRange): string {
  const to = new Date(`${range.to}T00:00:00Z`).getTime() + DAY - 1
  return `dateFrom=${range.from}T00:00:00.000Z&dateTo=${new Date(to).toISOString()}`
}
