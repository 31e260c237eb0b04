import MiniSearch from 'minisearch'
import { parseQuery, queryText, type SearchQuery } from '../query.ts'
import { processTerm, tokenize } from '../terms.ts'
import type { Section } from '../types.ts'
import { FIELD_BOOST, fieldsOf, type RankOptions, type SectionIndex } from './types.ts'

/** MiniSearch (BM25+) over the sections, with prefix search and typo tolerance for words the index lacks. */
export function miniSearchIndex(sections: Section[]): SectionIndex {
  const byId = new Map(sections.map((section) => [section.id, section]))
  const position = new Map(sections.map((section, i) => [section, i]))
  const known = new Set<string>()
  const index = new MiniSearch<{ id: string; title: string; headings: string; meta: string; content: string }>({
    fields: ['title', 'headings', 'meta', 'content'],
    tokenize,
    processTerm: (term) => {
      const processed = processTerm(term)
      if (processed) known.add(processed)
      return processed
    },
  })
  index.addAll(sections.map((section) => ({ id: section.id, ...fieldsOf(section) })))
  return {
    search(query: string | SearchQuery, options: RankOptions) {
      // Compared on ranking alone: the question's own words, without synonyms or context.
      const text = queryText(typeof query === 'string' ? parseQuery(query) : query)
      const { filter, boost } = options
      const hits = index.search(text, {
        boost: FIELD_BOOST,
        // Prefix and typo matching help short, typed queries; on a long question or a pasted selection they cost time.
        // Prefixes and typos are looked for only where the index lacks the word itself, as the packed engine does.
        prefix: (term, _i, terms) => term.length >= 3 && terms.length <= 12 && !known.has(term),
        // The text is already words (identifiers with their parts): read it as such, or the parts would come twice.
        tokenize: (words) => words.split(' '),
        processTerm,
        fuzzy: (term, _i, terms) => (term.length >= 5 && terms.length <= 6 && !known.has(term) ? 0.2 : false),
        weights: { prefix: 0.3, fuzzy: 0.3 },
        combineWith: 'OR',
        filter: filter ? (hit) => filter(byId.get(hit.id)!, position.get(byId.get(hit.id)!)!) : undefined,
        boostDocument: boost ? (id) => boost(byId.get(id)!, position.get(byId.get(id)!)!) : undefined,
      })
      return hits.slice(0, options.limit).map((hit) => ({ section: byId.get(hit.id)!, score: hit.score }))
    },
  }
}
