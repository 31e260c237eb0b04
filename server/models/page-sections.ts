// What part of the reader's page a question names: a section whose heading, or a field whose label, holds one of its
// words. A question declined on the page is asked of that part (see extractiveAnswer).
import type { SourceBlock } from '../assistant/prompt-format.ts'
import { contentTerms } from '../search/terms.ts'
import { among, type Word } from './answer-choice.ts'
import type { Passage } from './passages.ts'

/**
 * The headings of the reader's page's sections (not its title), and the labels of its passages (a field's name and
 * type: "proxy boolean"), that hold one of the question's own words: "when would I want to turn the proxy off here?"
 * on a page with a `proxy` field.
 */
export function sectionsOn(passages: Passage[], page: number, sources: SourceBlock[], own: Word[]): Set<string> {
  const title = sources.find((source) => source.id === page)?.title
  const names = new Set(passages.flatMap((p) => (p.sourceId === page ? [p.heading, p.label] : [])))
  return new Set(
    [...names].filter((name): name is string => {
      if (name === undefined || name === title) return false
      const stems = new Set(contentTerms(name))
      return own.some((word) => word.weight === 1 && among(word, stems))
    }),
  )
}

export const inPageSection = (p: Passage, sections: Set<string>) =>
  (p.heading !== undefined && sections.has(p.heading)) || (p.label !== undefined && sections.has(p.label))
