import { similarity, squash, wordOverlap } from '../similarity.ts'

/** A page a broken link may have meant. */
export interface PageCandidate {
  path: string
  title: string
  /** The navigation list the page is in (see NavEntry.list), if it is listed. */
  list?: number
}

/** What is known of the link besides its target. */
export interface LinkClues {
  /** The link's text or card title. */
  text?: string
  /**
   * Navigation lists holding pages of the folder the target names (`concepts/` for `/concepts/segments`): a page
   * moved out of a folder usually keeps its place in the navigation, beside the pages it left.
   */
  lists?: ReadonlySet<number>
}

export interface Match {
  path: string
  /** 0..1: how sure the match is. */
  score: number
}

export interface MatchResult {
  /** The page to fix the link to, when one is clearly best. */
  best?: Match
  /** The closest pages, best first (at most 3), for the report when none is clearly best. */
  candidates: Match[]
}

export interface MatchOptions {
  /** Lowest score a fix needs. */
  threshold: number
  /** How far ahead of the runner-up the best must be: two pages named `overview` leave a link alone. */
  margin: number
}

export const DEFAULT_MATCH: MatchOptions = { threshold: 0.8, margin: 0.1 }

/**
 * The page a link to a missing `target` meant, by name and title: moved to another folder (same last segment),
 * renamed a little (`quick-start` → `quickstart`, `rollout` → `rollouts`), or named by the link's own text (a link
 * reading "Custom domains" to a page titled "Custom domains"). Scores:
 * - the last segments' similarity (edit distance over length, separators ignored), 10% less in another folder;
 * - the whole paths' similarity;
 * - the link text against the page title (shared words), 5% less: link texts are often "here" or "this guide".
 * The best of the three, plus 0.05 when a second signal agrees (≥ 0.7), plus 0.15 for a page in the navigation
 * beside the pages of the target's folder (where a moved page usually stays). Scores above 1 rank, and show as 1.
 */
export function matchPage(target: string, clues: LinkClues, candidates: readonly PageCandidate[], options = DEFAULT_MATCH): MatchResult {
  const targetName = lastName(target)
  const targetFolder = folderOf(target)
  const scored: Match[] = []
  for (const candidate of candidates) {
    const name = similarity(squash(targetName), squash(lastName(candidate.path))) * (folderOf(candidate.path) === targetFolder ? 1 : 0.9)
    const path = similarity(squash(target), squash(candidate.path))
    const text = clues.text ? wordOverlap(clues.text, candidate.title) * 0.95 : 0
    const signals = [name, path, text].sort((a, b) => b - a)
    const beside = candidate.list !== undefined && clues.lists?.has(candidate.list) ? 0.15 : 0
    const score = signals[0]! + (signals[1]! >= 0.7 ? 0.05 : 0) + beside
    if (score > 0.3) scored.push({ path: candidate.path, score: round(score) })
  }
  return decide(scored, options)
}

/** The anchor a broken fragment meant among a page's anchors, by the same rule: close in spelling and clearly best. */
export function matchAnchor(anchor: string, anchors: Iterable<string>, options = DEFAULT_MATCH): MatchResult {
  const wanted = anchor.toLowerCase()
  const scored: Match[] = []
  for (const candidate of anchors) {
    const score = candidate === wanted ? 1 : Math.max(similarity(squash(wanted), squash(candidate)), wordOverlap(wanted, candidate) * 0.95)
    if (score > 0.3) scored.push({ path: candidate, score: round(score) })
  }
  return decide(scored, options)
}

function decide(scored: Match[], options: MatchOptions): MatchResult {
  scored.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
  const [first, second] = scored
  // Scores are rounded to thousandths: a margin of exactly 0.1 must pass despite floating point.
  const clear = first && first.score >= options.threshold && first.score - (second?.score ?? 0) >= options.margin - 1e-9
  const shown = (match: Match): Match => ({ path: match.path, score: Math.min(1, match.score) })
  return { best: clear ? shown(first) : undefined, candidates: scored.slice(0, 3).map(shown) }
}

/** `guides/setup` → `setup`; `cli/index` → `cli` (the page of a folder is named by the folder). */
function lastName(path: string): string {
  const parts = path.split('/')
  if (parts.length > 1 && parts.at(-1) === 'index') parts.pop()
  return parts.at(-1) ?? path
}

function folderOf(path: string): string {
  const parts = path.split('/')
  if (parts.at(-1) === 'index') parts.pop()
  return parts.slice(0, -1).join('/')
}

const round = (score: number) => Math.round(score * 1000) / 1000
