import type { GapSignalRecord } from '../../store/types.ts'

export interface GapQuestion {
  /** As a reader wrote it (the most recent wording of the ones that normalize alike). */
  query: string
  count: number
  lastAskedAt: Date
  firstAskedAt: Date
  /** True when it was asked of the assistant (a question), false for a search that found nothing (keywords). */
  asked: boolean
}

const key = (query: string) =>
  query
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** A gap's questions, one per wording (case and punctuation aside), most asked first, then most recent. */
export function gapQuestions(signals: readonly GapSignalRecord[], limit = 20): GapQuestion[] {
  const byKey = new Map<string, GapQuestion>()
  for (const signal of signals) {
    const k = key(signal.query)
    const known = byKey.get(k)
    if (!known) {
      byKey.set(k, { query: signal.query, count: 1, lastAskedAt: signal.at, firstAskedAt: signal.at, asked: signal.kind !== 'no_results' })
      continue
    }
    known.count++
    if (signal.kind !== 'no_results' && !known.asked) Object.assign(known, { asked: true, query: signal.query })
    if (signal.at < known.firstAskedAt) known.firstAskedAt = signal.at
    if (signal.at > known.lastAskedAt) {
      known.lastAskedAt = signal.at
      if (signal.kind !== 'no_results' || !known.asked) known.query = signal.query
    }
  }
  // Most asked first; among equals a question as readers ask it (not a search's keywords), then the first asked, so
  // the gap's title stays put unless another wording is asked more.
  const questionLike = (q: GapQuestion) => (q.asked && /\?\s*$/.test(q.query) ? 1 : 0)
  return [...byKey.values()]
    .sort((a, b) => b.count - a.count || questionLike(b) - questionLike(a) || a.firstAskedAt.getTime() - b.firstAskedAt.getTime())
    .slice(0, limit)
}

/** The pages readers asked from, the most frequent first. */
export function gapPages(signals: readonly GapSignalRecord[], limit = 10): string[] {
  const counts = new Map<string, number>()
  for (const signal of signals) if (signal.pageUrl) counts.set(signal.pageUrl, (counts.get(signal.pageUrl) ?? 0) + 1)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit)
    .map(([page]) => page)
}
