import type { Section } from '../types.ts'
import { miniSearchIndex } from './minisearch.ts'
import { oramaIndex } from './orama.ts'
import { packedIndex } from './packed.ts'
import type { SectionIndex } from './types.ts'

/** The index libraries measured against each other (bench/search-quality, bench/search-speed). */
export const ENGINES: Record<string, (sections: Section[]) => SectionIndex> = {
  minisearch: miniSearchIndex,
  orama: oramaIndex,
  packed: packedIndex,
}
