import { processTerm, tokenize } from '../../search/terms.ts'
import type { Corpus } from '../../search/types.ts'
import { pacer } from '../../event-loop.ts'

/** Words of a question that say nothing about what was asked, beyond the search's own stop words. */
const QUESTION_WORDS = new Set(
  (
    'all any anyone able about also another doc docs documentation documented page pages help hello hi thanks thank please way ways ' +
    'possible know tell explain there here just some something thing things work works working doesn does not no yes other ' +
    'one still again find see look lot much many more most new like make made'
  )
    .split(' ')
    .map((word) => processTerm(word))
    .filter((term): term is string => term !== null),
)

/** Most terms kept of one question: a pasted paragraph is not a question. */
const MAX_TERMS = 24

/** What a question asks about: its distinct meaningful terms, stemmed as the search index stems them. */
export function questionTerms(text: string): string[] {
  const terms = new Set<string>()
  for (const word of tokenize(text)) {
    const term = processTerm(word)
    if (!term || QUESTION_WORDS.has(term) || (term.length < 2 && !/\d/.test(term))) continue
    terms.add(term)
    if (terms.size === MAX_TERMS) break
  }
  return [...terms]
}

/** How telling a term is: rare in the docs weighs more; a term the docs never use weighs as much as the rarest. */
export type TermWeight = (term: string) => number

const weightsByCorpus = new WeakMap<Corpus, Promise<TermWeight>>()

/**
 * Inverse document frequency over the docs' pages, built once per loaded corpus (the docs change, the weights follow).
 * "flag" on a feature-flag site is everywhere and says little; "csv" it never mentions says a lot.
 */
export function termWeights(corpus: Corpus): Promise<TermWeight> {
  let weights = weightsByCorpus.get(corpus)
  if (!weights) weightsByCorpus.set(corpus, (weights = computeWeights(corpus)))
  return weights
}

async function computeWeights(corpus: Corpus): Promise<TermWeight> {
  const df = new Map<string, number>()
  const pages = corpus.pages()
  // A large site's weights never stall answers: the reading gives the event loop turns.
  const pace = pacer()
  for (const page of pages) {
    await pace()
    const content = corpus.page(page.path)?.content ?? ''
    const seen = new Set<string>()
    for (const word of tokenize(`${page.title} ${content}`)) {
      const term = processTerm(word)
      if (term && !seen.has(term)) {
        seen.add(term)
        df.set(term, (df.get(term) ?? 0) + 1)
      }
    }
  }
  const n = Math.max(1, pages.length)
  const rarest = Math.log(1 + n)
  return (term) => {
    const count = df.get(term)
    return count === undefined ? rarest : Math.max(0.05, Math.log(1 + n / (count + 0.5)))
  }
}
