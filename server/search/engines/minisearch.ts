import MiniSearch from 'minisearch'
import { processTerm, queryTerms, tokenize } from '../terms.ts'
import type { Section } from '../types.ts'
import { FIELD_BOOST, fieldsOf, type RankOptions, type SectionIndex } from './types.ts'

/** MiniSearch (BM25+) over the sections, with prefix search and typo tolerance on longer words. */
export function miniSearchIndex(sections: Section[]): SectionIndex {
  const byId = new Map(sections.map((section) => [section.id, section]))
  const index = new MiniSearch<{ id: string; title: string; headings: string; meta: string; content: string }>({
    fields: ['title', 'headings', 'meta', 'content'],
    tokenize,
    processTerm,
  })
  index.addAll(sections.map((section) => ({ id: section.id, ...fieldsOf(section) })))
  return {
    search(query: string, options: RankOptions) {
      const { filter, boost } = options
      const hits = index.search(queryTerms(query), {
        boost: FIELD_BOOST,
        // Prefix and typo matching help short, typed queries; on a long question or a pasted selection they cost time.
        prefix: (term, _i, terms) => term.length >= 3 && terms.length <= 12,
        fuzzy: (term, _i, terms) => (term.length >= 5 && terms.length <= 6 ? 0.2 : false),
        weights: { prefix: 0.3, fuzzy: 0.3 },
        combineWith: 'OR',
        filter: filter ? (hit) => filter(byId.get(hit.id)!) : undefined,
        boostDocument: boost ? (id) => boost(byId.get(id)!) : undefined,
      })
      return hits.slice(0, options.limit).map((hit) => ({ section: byId.get(hit.id)!, score: hit.score }))
    },
  }
}
