import SearchableMap from 'minisearch/SearchableMap'
import { internalLinks } from '../../models/markdown-links.ts'
import { processTerm, tokenize, WORD } from '../terms.ts'
import type { Section } from '../types.ts'
import { fieldsOf } from './types.ts'

// The packed index's data: every section's words as postings in typed arrays, and the per-list score bounds MaxScore
// prunes with. Ranking over them is packed.ts.

/** The indexed fields, in the order their postings lists interleave. */
export const FIELDS = ['title', 'headings', 'meta', 'content'] as const
/** BM25+'s length normalization and its bonus for any match: MiniSearch's. */
export const B = 0.7
export const D = 0.5
/** MiniSearch's term-frequency saturation (BM25's k1), the same in every field. */
export const MINISEARCH_SATURATION: readonly number[] = FIELDS.map(() => 1.2)
/**
 * The saturation Docent ranks with, per field (FIELDS order). A title or heading holds a word once, so there k1 does not
 * temper repeats: it sets how far a short field outweighs a long one for the word they share. Higher there, a page
 * titled just "Plausible" outranks one titled "Traffic" that mentions Plausible in a paragraph; in the content, where
 * words repeat, MiniSearch's 1.2 stays. Measured on bench/search-quality (recall@5/MRR@10): demo 0.992/0.937 either
 * way; Mintlify tuning 0.989/0.884 → 0.989/0.890, tuning 2 0.959/0.835 → 0.959/0.859, held out 0.950/0.866 both; and
 * on bench/search-answers one cited page more on each Mintlify set. k1 2 in the content cost tuning 2 a page in the
 * first 5; 3 in the short fields lost a demo question from the first 5.
 */
export const SATURATION: readonly number[] = [2.5, 2, 2, 1.2]

/** Every term's postings in one pair of arrays: those of term t in field f run from `offsets[t*4+f]` to `offsets[t*4+f+1]`. */
export interface Postings {
  /** Term to term id, as a radix tree for prefix and typo lookups. */
  terms: SearchableMap<number>
  offsets: Int32Array
  docs: Int32Array
  freqs: Uint16Array
  /** Per field, each section's number of distinct words (stop words included, as MiniSearch counts). */
  lengths: Float32Array[]
}

/** Per term and field, the most one posting can add before weights: BM25+'s part that tf and length decide. */
export function highestImpacts(
  offsets: Int32Array,
  docs: Int32Array,
  freqs: Uint16Array,
  lengths: Float32Array[],
  saturation: readonly number[],
  norms: number[],
): Float32Array {
  const highest = new Float32Array(offsets.length - 1)
  for (let list = 0; list < highest.length; list++) {
    const field = list % FIELDS.length
    const fieldLengths = lengths[field]!
    const norm = norms[field]!
    const k = saturation[field]!
    let most = 0
    for (let i = offsets[list]!; i < offsets[list + 1]!; i++) {
      const tf = freqs[i]!
      const impact = D + (tf * (k + 1)) / (tf + k * (1 - B) + B * norm * fieldLengths[docs[i]!]!)
      if (impact > most) most = impact
    }
    // Float32 rounds down as often as up: a bound must not be below any score it bounds.
    highest[list] = most * (1 + 1e-6)
  }
  return highest
}

/**
 * Counts each section's terms field by field, then lays the postings out term by term with a counting sort. Hash
 * lookups (not the radix tree) and no per-term maps while counting: the 10k-page index builds ~3x faster this way.
 */
export function buildPostings(sections: Section[], options: { lengthAsRead?: boolean } = {}): Postings {
  const termIds = new Map<string, number>()
  // Words repeat (Zipf): each distinct word is stemmed once. -1 marks a stop word.
  const wordIds = new Map<string, number>()
  const lengths = FIELDS.map(() => new Float32Array(sections.length))
  let keys = new Int32Array(1 << 16)
  let entryDocs = new Int32Array(1 << 16)
  let entryFreqs = new Uint16Array(1 << 16)
  let entries = 0
  const counts = new Map<number, number>()
  const distinct = new Set<string>()
  sections.forEach((section, doc) => {
    const fields = fieldsOf(section)
    FIELDS.forEach((field, f) => {
      counts.clear()
      distinct.clear()
      for (const word of tokenize(fields[field])) {
        distinct.add(word)
        let id = wordIds.get(word)
        if (id === undefined) {
          const term = processTerm(word)
          id = term === null ? -1 : (termIds.get(term) ?? termIds.set(term, termIds.size).size - 1)
          wordIds.set(word, id)
        }
        if (id >= 0) counts.set(id, (counts.get(id) ?? 0) + 1)
      }
      // The links left out of the content (see fieldsOf) still take a reader's time: as read, the section is as long.
      if (options.lengthAsRead && field === 'content') {
        // Their words split as tokenize splits them, without its identifier parts: close enough for a length, and four
        // times cheaper (over Mintlify's 6,570 sections, 11 ms against 45 ms with tokenize).
        for (const link of internalLinks(section.content)) for (const word of link.toLowerCase().match(WORD) ?? []) distinct.add(word)
      }
      lengths[f]![doc] = distinct.size
      if (entries + counts.size > keys.length) {
        const capacity = Math.max(keys.length * 2, entries + counts.size)
        keys = grow(keys, new Int32Array(capacity))
        entryDocs = grow(entryDocs, new Int32Array(capacity))
        entryFreqs = grow(entryFreqs, new Uint16Array(capacity))
      }
      for (const [id, n] of counts) {
        keys[entries] = id * FIELDS.length + f
        entryDocs[entries] = doc
        entryFreqs[entries] = Math.min(n, 65535)
        entries++
      }
    })
  })
  // Sections were visited in order, so each term's postings come out sorted by section.
  const offsets = new Int32Array(termIds.size * FIELDS.length + 1)
  for (let i = 0; i < entries; i++) offsets[keys[i]! + 1]!++
  for (let k = 1; k < offsets.length; k++) offsets[k]! += offsets[k - 1]!
  const next = offsets.slice(0, -1)
  const docs = new Int32Array(entries)
  const freqs = new Uint16Array(entries)
  for (let i = 0; i < entries; i++) {
    const at = next[keys[i]!]!++
    docs[at] = entryDocs[i]!
    freqs[at] = entryFreqs[i]!
  }
  const terms = new SearchableMap<number>()
  for (const [term, id] of termIds) terms.set(term, id)
  return { terms, offsets, docs, freqs, lengths }
}

function grow<T extends Int32Array | Uint16Array>(from: T, to: T): T {
  to.set(from)
  return to
}
