import { type Passage, splitPassages } from './passages.ts'
import type { SourceBlock } from './source-blocks.ts'
import { contentTerms, contentWords } from '../search/terms.ts'

const MAX_PASSAGES = 4
/** Share of the question's (weighted) words the quoted passages must contain for the docs to count as covering it. */
const MIN_COVERAGE = 0.5

export const NOT_COVERED = 'The docs do not cover this question.'

interface Scored extends Passage {
  score: number
  terms: Set<string>
}

/**
 * An answer made only of the sources' own words: the passages that share the most (rare) words with the question,
 * in reading order, each paragraph cited `[n]`. When the best passages miss most of the question, it says so.
 */
export function extractiveAnswer(question: string, sources: SourceBlock[]): string {
  const questionTerms = [...new Set(contentTerms(question))]
  const passages = sources.flatMap((source) => splitPassages(source.id, `${source.title}\n\n${source.content}`).slice(1))
  if (questionTerms.length === 0 || passages.length === 0) return notCovered(sources, question)

  const scored: Scored[] = passages.map((p) => ({ ...p, score: 0, terms: new Set(contentTerms(p.text)) }))
  const df = new Map<string, number>()
  for (const p of scored) for (const term of p.terms) df.set(term, (df.get(term) ?? 0) + 1)
  const weight = (term: string) => Math.log(1 + scored.length / (1 + (df.get(term) ?? 0)))
  // A passage also speaks for its section's heading ("Install and initialize" over a bare `npm install` block).
  const headingTerms = new Map(sources.map((s) => [s.id, new Set(contentTerms(s.title))]))
  for (const p of scored) {
    const matched = questionTerms.filter((term) => p.terms.has(term))
    const byHeading = questionTerms.filter((term) => !p.terms.has(term) && headingTerms.get(p.sourceId)?.has(term))
    const lengthPenalty = 1 + Math.log(1 + p.terms.size / 25)
    const sum = (terms: string[]) => terms.reduce((total, term) => total + weight(term), 0)
    // The search ranked the sources: a small bonus keeps its order between equally good passages.
    p.score = matched.length === 0 ? 0 : (sum(matched) + 0.5 * sum(byHeading)) / lengthPenalty + 0.05 / p.sourceId
    for (const term of byHeading) p.terms.add(term)
  }
  const ranked = scored.filter((p) => p.score > 0).sort((a, b) => b.score - a.score)
  const best = ranked[0]
  if (!best) return notCovered(sources, question)
  // At most one code block: an answer made of code alone explains nothing.
  const firstCode = ranked.find((p) => p.kind === 'code')
  const chosen = ranked.filter((p) => p.score >= best.score * 0.5 && (p.kind === 'text' || p === firstCode)).slice(0, MAX_PASSAGES)

  const covered = new Set(chosen.flatMap((p) => questionTerms.filter((term) => p.terms.has(term))))
  const total = questionTerms.reduce((sum, term) => sum + weight(term), 0)
  const found = [...covered].reduce((sum, term) => sum + weight(term), 0)
  if (found / total < MIN_COVERAGE) return notCovered(sources, question)

  withFollowingCode(chosen, scored)
  return render(chosen, sources)
}

/** A "how do I" sentence is usually followed by the code that does it: quote that too (one block at most). */
function withFollowingCode(chosen: Scored[], all: Scored[]) {
  if (chosen.some((p) => p.kind === 'code')) return
  for (const p of [...chosen]) {
    const next = all.find((q) => q.sourceId === p.sourceId && q.index === p.index + 1)
    if (next?.kind === 'code' && p.text.trimEnd().endsWith(':')) {
      chosen.push(next)
      return
    }
  }
}

function render(chosen: Scored[], sources: SourceBlock[]): string {
  chosen.sort((a, b) => a.sourceId - b.sourceId || a.index - b.index)
  const paragraphs: string[] = []
  let current: { sourceId: number; parts: string[] } | undefined
  const close = () => {
    if (current) paragraphs.push(`${current.parts.join(' ')} [${current.sourceId}]`)
    current = undefined
  }
  for (const p of chosen) {
    if (p.kind === 'code') {
      close()
      paragraphs.push(p.text)
      continue
    }
    if (current?.sourceId !== p.sourceId) {
      close()
      current = { sourceId: p.sourceId, parts: [] }
    }
    current.parts.push(p.text)
  }
  close()
  const cited = sources.filter((s) => chosen.some((p) => p.sourceId === s.id))
  const list = cited.map((s) => `[${s.id}] [${s.title}](${s.url})`).join(' · ')
  return `From the docs:\n\n${paragraphs.join('\n\n')}\n\nSources: ${list}`
}

function notCovered(sources: SourceBlock[], question: string): string {
  const words = [...new Set(contentWords(question))]
  const topic = words.length > 0 ? ` I found nothing about "${words.slice(0, 6).join(' ')}".` : ''
  const closest = sources.slice(0, 3).map((s) => `[${s.title}](${s.url})`)
  const nearby = closest.length > 0 ? ` The closest pages are ${closest.join(', ')}.` : ''
  return `${NOT_COVERED}${topic}${nearby} Try rephrasing the question, or ask the docs team.`
}
