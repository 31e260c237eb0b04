import { translationKey } from '../../server/search/corpus.ts'
import type { Corpus } from '../../server/search/types.ts'

export interface Question {
  question: string
  /** Pages that answer it; a hit on any of them counts. */
  pages: string[]
}

export interface Quality {
  questions: number
  recallAt5: number
  mrrAt10: number
  /** Questions whose first 5 pages hold one page twice, in two languages (`quickstart` and `fr/quickstart`). */
  translationsAt5: number
  misses: Array<{ question: string; expected: string[]; got: string[] }>
}

/** Ranks pages by their best section (as the assistant sees them) and scores recall@5 and MRR@10. */
export function evaluate(corpus: Corpus, questions: Question[]): Quality {
  let found = 0
  let reciprocal = 0
  let translationsAt5 = 0
  const misses: Quality['misses'] = []
  const pageKey = new Map(corpus.pages().map((page) => [page.path, translationKey(page.path, page.language)]))
  for (const { question, pages } of questions) {
    const ranked = rankedPages(corpus, question, 10)
    const keys = ranked.slice(0, 5).map((path) => pageKey.get(path) ?? path)
    if (new Set(keys).size < keys.length) translationsAt5++
    const rank = ranked.findIndex((path) => pages.includes(path))
    if (rank >= 0 && rank < 5) found++
    else misses.push({ question, expected: pages, got: ranked.slice(0, 5) })
    if (rank >= 0) reciprocal += 1 / (rank + 1)
  }
  return {
    questions: questions.length,
    recallAt5: found / questions.length,
    mrrAt10: reciprocal / questions.length,
    translationsAt5,
    misses,
  }
}

export function rankedPages(corpus: Corpus, query: string, count: number): string[] {
  const pages: string[] = []
  for (const hit of corpus.search(query, { pageSize: 50 })) {
    if (!pages.includes(hit.section.path)) pages.push(hit.section.path)
    if (pages.length === count) break
  }
  return pages
}
