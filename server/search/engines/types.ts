import { withoutInternalLinks } from '../../models/markdown-links.ts'
import { withoutFieldDefaults } from '../page-blocks.ts'
import type { QueryWord, SearchQuery } from '../query.ts'
import type { Section } from '../types.ts'

export interface RankOptions {
  limit: number
  /** Sections that may be returned (`index`: the section's position in the indexed list). */
  filter?: (section: Section, index: number) => boolean
  /** Multiplies a section's score (currentPath and its neighbours). */
  boost?: (section: Section, index: number) => number
  /** The largest factor `boost` returns: lets an engine skip sections that cannot reach the top. */
  maxBoost?: number
  /**
   * Sections (positions, ascending) that `boost` may raise above `restBoost`, the largest factor it gives any other:
   * an engine scores these first and then prunes the rest with the smaller bound.
   */
  favoured?: number[]
  restBoost?: number
}

/** A full-text index over a corpus's sections; the library behind it is an implementation detail. */
export interface SectionIndex {
  /** Best sections first, with raw (unnormalized) scores. A string is read with `parseQuery`. */
  search(query: string | SearchQuery, options: RankOptions): Array<{ section: Section; score: number }>
  /**
   * How many of the query's words `counted` accepts (by default its counting words), in any of their forms, occur in
   * sections `from` to `to` - 1; for many ranges of one query, its words' forms found once.
   */
  wordsInRanges?(query: SearchQuery, counted?: (word: QueryWord) => boolean): (from: number, to: number) => number
  /**
   * The query's own words the index holds in no form (stem, synonym, word family; typos not counted), counting only
   * the sections `counts` accepts when given (the reader's language: French "car" says nothing of a car).
   */
  unknownWords?(query: SearchQuery, counts?: (section: number) => boolean): string[]
}

/**
 * Field weights: a word in a page title or heading says a little more than one in a paragraph, and so does one in the
 * page's frontmatter description or keywords (`meta`), written to say what the page is about. Measured on
 * bench/search-quality: heavier title weights (4, 2.5, 1.5) cost MRR@10 0.90 against 0.91 here; meta 1 → 1.25 raised
 * both Mintlify tuning sets (recall@5/MRR@10 0.967/0.877 → 0.978/0.883, 0.898/0.788 → 0.898/0.812) and the demo's MRR
 * (0.930 → 0.934); 1.5 and more lost demo questions.
 */
export const FIELD_BOOST = { title: 1.5, headings: 1.5, meta: 1.25, content: 1 }

/**
 * What each field of a section holds, for every engine alike. The content leaves out links to other pages of the same
 * docs: "Configure tools like [Cursor](/guides/cursor) and [Devin Desktop](/guides/devin-desktop)" on an overview
 * ranked it above the Devin Desktop guide for "use devin to write our docs". Measured on bench/search-quality
 * (MRR@10): Mintlify tuning 0.894 → 0.900, tuning 4 0.865 → 0.885, tuning 7 0.733 → 0.749, held out 0.880 → 0.893,
 * the rest and every recall@5 unchanged, the demo unchanged (with the section's length as read, see packedIndex).
 * Leaving out every link (external ones name what only this page covers: a ReadMe guide's links to docs.readme.com)
 * cost tuning 8 a first place.
 */
export function fieldsOf(section: Section): { title: string; headings: string; meta: string; content: string } {
  return {
    title: section.pageTitle,
    headings: [...section.headings.slice(1), ...(section.subheadings ?? [])].join(' \n '),
    meta: [section.description ?? '', ...section.tags].join(' \n '),
    content: withoutFieldDefaults(withoutInternalLinks(section.content)),
  }
}
