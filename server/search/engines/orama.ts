import { create, insertMultiple, search } from '@orama/orama'
import { parseQuery, queryText, type SearchQuery } from '../query.ts'
import { processTerm, tokenize } from '../terms.ts'
import type { Section } from '../types.ts'
import { FIELD_BOOST, fieldsOf, type RankOptions, type SectionIndex } from './types.ts'

/** How many more hits to fetch when filtering or boosting afterwards (Orama has no per-document filter or boost). */
const OVERFETCH = 5

/**
 * Orama (BM25) over the sections, with the same terms and field weights as MiniSearch so the two compare on ranking
 * alone. Prefix matching is always on in Orama; its typo tolerance (1) lowered recall@5 on bench/search-quality, so it is off.
 */
export function oramaIndex(sections: Section[]): SectionIndex {
  const byId = new Map(sections.map((section) => [section.id, section]))
  const position = new Map(sections.map((section, i) => [section, i]))
  const db = create({
    schema: { title: 'string', headings: 'string', meta: 'string', content: 'string' } as const,
    components: {
      tokenizer: {
        language: 'english',
        normalizationCache: new Map(),
        tokenize: (raw: string) =>
          tokenize(raw)
            .map(processTerm)
            .filter((term): term is string => Boolean(term)),
      },
    },
  })
  const inserted = insertMultiple(
    db,
    sections.map((section) => ({ id: section.id, ...fieldsOf(section) })),
  )
  if (inserted instanceof Promise) throw new Error('orama: expected a synchronous insert')
  return {
    search(query: string | SearchQuery, options: RankOptions) {
      // Compared on ranking alone: the question's own words, without synonyms or context.
      const text = queryText(typeof query === 'string' ? parseQuery(query) : query)
      const { filter, boost } = options
      const fetch = filter || boost ? Math.max(options.limit * OVERFETCH, 50) : options.limit
      const result = search(db, { term: text, limit: fetch, boost: FIELD_BOOST, tolerance: 0, threshold: 1 })
      if (result instanceof Promise) throw new Error('orama: expected a synchronous search')
      const hits = result.hits
        .map((hit) => ({ section: byId.get(hit.id)!, score: hit.score }))
        .filter((hit) => !filter || filter(hit.section, position.get(hit.section)!))
        .map((hit) => (boost ? { ...hit, score: hit.score * boost(hit.section, position.get(hit.section)!) } : hit))
      if (boost) hits.sort((a, b) => b.score - a.score)
      return hits.slice(0, options.limit)
    },
  }
}
