import type { Source } from '../../../shared/assistant.ts'
import type { GapRecord, GapSection, GapSignalRecord } from '../../store/analytics-types.ts'
import type { TermWeight } from './question-terms.ts'

/** A question joins the gap it resembles most when the resemblance reaches this (0..1). */
export const JOIN_THRESHOLD = 0.5
/** Terms and sections a gap keeps as its signature: enough to recognize its questions, small to store. */
const SIGNATURE_TERMS = 40
const SIGNATURE_SECTIONS = 10
/** Nearest sections compared: the first few sources of an answer. */
const NEAREST = 3

const pagesOf = (sections: readonly Source[]) => new Set(sections.slice(0, NEAREST).map((section) => section.path))

/** The terms most of a gap's questions share (all of them while the gap is small). */
function representativeTerms(gap: GapRecord): string[] {
  const least = gap.memberCount < 3 ? 1 : Math.max(1, Math.ceil(gap.memberCount / 4))
  return Object.entries(gap.terms)
    .filter(([, count]) => count >= least)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 24)
    .map(([term]) => term)
}

/**
 * How much a question resembles a gap: the weighted share of meaningful terms they have in common (Jaccard, rare
 * terms weighing more), raised by how many of the nearest docs pages they share when both have any. Paraphrases
 * of one question meet on their rare words and on the pages search brings up for them; two questions that merely
 * land near the same pages do not.
 */
export function resemblance(signal: Pick<GapSignalRecord, 'terms' | 'sections'>, gap: GapRecord, weight: TermWeight): number {
  const mine = new Set(signal.terms)
  const theirs = new Set(representativeTerms(gap))
  let shared = 0
  let union = 0
  for (const term of new Set([...mine, ...theirs])) {
    const w = weight(term)
    union += w
    if (mine.has(term) && theirs.has(term)) shared += w
  }
  const terms = union === 0 ? 0 : shared / union
  const a = pagesOf(signal.sections)
  const b = pagesOf(gap.sections)
  if (a.size === 0 || b.size === 0) return terms
  const common = [...a].filter((page) => b.has(page)).length
  // Shared pages raise a borderline match; they never sink a strong one (search may bring up other pages for it).
  return Math.max(terms, 0.6 * terms + 0.4 * (common / Math.min(a.size, b.size)))
}

/** The gap a question belongs to, or null when none resembles it enough. */
export function nearestGap(signal: GapSignalRecord, gaps: readonly GapRecord[], weight: TermWeight): GapRecord | null {
  let best: GapRecord | null = null
  let bestScore = JOIN_THRESHOLD
  for (const gap of gaps) {
    const score = resemblance(signal, gap, weight)
    if (score >= bestScore) {
      best = gap
      bestScore = score
    }
  }
  return best
}

/** A new gap made of one question. */
export function gapOf(signal: GapSignalRecord, id: string, now: Date): GapRecord {
  return {
    id,
    projectId: signal.projectId,
    title: signal.query,
    status: 'open',
    reason: null,
    jobId: null,
    terms: {},
    sections: [],
    memberCount: 0,
    merge: null,
    verifiedAt: null,
    firstSeenAt: signal.at,
    lastSeenAt: signal.at,
    createdAt: now,
    updatedAt: now,
  }
}

/** Adds a question to a gap's signature (in place): its terms and nearest sections counted, the dates widened. */
export function absorb(gap: GapRecord, signal: GapSignalRecord, now: Date): void {
  gap.memberCount++
  for (const term of signal.terms) gap.terms[term] = (gap.terms[term] ?? 0) + 1
  gap.terms = Object.fromEntries(
    Object.entries(gap.terms)
      .sort((a, b) => b[1] - a[1])
      .slice(0, SIGNATURE_TERMS),
  )
  const sections = new Map<string, GapSection>(gap.sections.map((section) => [section.url, { ...section }]))
  for (const section of signal.sections.slice(0, NEAREST)) {
    const known = sections.get(section.url)
    if (known) known.count++
    else sections.set(section.url, { ...section, count: 1 })
  }
  gap.sections = [...sections.values()].sort((a, b) => b.count - a.count).slice(0, SIGNATURE_SECTIONS)
  if (signal.at < gap.firstSeenAt) gap.firstSeenAt = signal.at
  if (signal.at > gap.lastSeenAt) gap.lastSeenAt = signal.at
  gap.updatedAt = now
}
