import SearchableMap from 'minisearch/SearchableMap'
import { parseQuery, type QueryWord, type SearchQuery } from '../query.ts'
import { processTerm, tokenize, wordFamily } from '../terms.ts'
import type { Section } from '../types.ts'
import { FIELD_BOOST, fieldsOf, type RankOptions, type SectionIndex } from './types.ts'

const FIELDS = ['title', 'headings', 'meta', 'content'] as const
/** MiniSearch's BM25+ parameters and prefix/typo weights, so both engines rank alike. */
const K = 1.2
const B = 0.7
const D = 0.5
const PREFIX_WEIGHT = 0.3
/** Weight of another word of the same family (`approve` for `approval`): the stemmer cuts only inflections. */
const FAMILY_WEIGHT = 0.4
const FUZZY_WEIGHT = 0.3

/** Every term's postings in one pair of arrays: those of term t in field f run from `offsets[t*4+f]` to `offsets[t*4+f+1]`. */
interface Postings {
  /** Term to term id, as a radix tree for prefix and typo lookups. */
  terms: SearchableMap<number>
  offsets: Int32Array
  docs: Int32Array
  freqs: Uint16Array
  /** Per field, each section's number of distinct words (stop words included, as MiniSearch counts). */
  lengths: Float32Array[]
}

/**
 * MiniSearch's ranking (BM25+ per field, field weights, prefix and typo matches through MiniSearch's own radix tree,
 * scores times the number of query words matched) over packed postings: all of them in two typed arrays, scores
 * summed into a preallocated array. Same results as the `minisearch` engine, several times faster on large corpora
 * because no per-document objects are made while scoring.
 */
export function packedIndex(sections: Section[], options: { family?: boolean } = {}): SectionIndex {
  const withFamily = options.family ?? true
  const count = sections.length
  const { terms, offsets, docs, freqs, lengths } = buildPostings(sections)
  const averages = lengths.map((values) => values.reduce((sum, n) => sum + n, 0) / Math.max(count, 1))
  const boosts = FIELDS.map((field) => FIELD_BOOST[field])

  // Reused between queries: scores, how many query words each section matched, and which word matched it last.
  const scores = new Float64Array(count)
  const matched = new Uint16Array(count)
  const lastWord = new Int32Array(count).fill(-1)
  const isTouched = new Uint8Array(count)
  const touched: number[] = []

  const add = (termId: number, weight: number, word: number) => {
    for (let f = 0; f < FIELDS.length; f++) {
      const from = offsets[termId * FIELDS.length + f]!
      const to = offsets[termId * FIELDS.length + f + 1]!
      if (from === to) continue
      const matches = to - from
      const idf = Math.log(1 + (count - matches + 0.5) / (matches + 0.5))
      const factor = weight * boosts[f]! * idf
      const fieldLengths = lengths[f]!
      const norm = K / averages[f]!
      for (let i = from; i < to; i++) {
        const doc = docs[i]!
        const tf = freqs[i]!
        const score = factor * (D + (tf * (K + 1)) / (tf + K * (1 - B) + B * norm * fieldLengths[doc]!))
        if (isTouched[doc] === 0) {
          isTouched[doc] = 1
          touched.push(doc)
        }
        scores[doc] = scores[doc]! + score
        if (word >= 0 && lastWord[doc] !== word) {
          lastWord[doc] = word
          matched[doc] = matched[doc]! + 1
        }
      }
    }
  }

  return {
    wordsIn(query: SearchQuery, from: number, to: number) {
      let found = 0
      for (const word of query.words) {
        if (!word.counts) continue
        const ids = [...expand(word, query.words.length).keys()]
        if (ids.some((id) => occursIn(id, from, to))) found++
      }
      return found
    },
    search(query: string | SearchQuery, options: RankOptions) {
      const { words } = typeof query === 'string' ? parseQuery(query) : query
      words.forEach((word, w) => {
        for (const [id, weight] of expand(word, words.length)) add(id, weight * word.weight, word.counts ? w : -1)
      })
      const top = topHits(touched, options, (doc) => scores[doc]! * Math.max(matched[doc]!, 1), sections)
      for (const doc of touched) {
        scores[doc] = 0
        matched[doc] = 0
        lastWord[doc] = -1
        isTouched[doc] = 0
      }
      touched.length = 0
      return top
    },
  }

  /** Whether a term occurs in a section from `from` to `to` - 1 (postings are sorted by section: a binary search). */
  function occursIn(termId: number, from: number, to: number): boolean {
    for (let f = 0; f < FIELDS.length; f++) {
      let lo = offsets[termId * FIELDS.length + f]!
      let hi = offsets[termId * FIELDS.length + f + 1]!
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (docs[mid]! < from) lo = mid + 1
        else hi = mid
      }
      if (lo < offsets[termId * FIELDS.length + f + 1]! && docs[lo]! < to) return true
    }
    return false
  }

  /**
   * The index terms a query word stands for, each with its weight: the word's stem and its synonyms; and when the index
   * lacks the reader's word itself, the longer words it begins (a word still being typed: `configu` → `configuration`)
   * and the words one or two typos away. Measured on bench/search-quality: expanding words the index has (`read` →
   * `readme`) cost MRR@10 0.926 → 0.908 on the demo and 0.860 → 0.856 on Mintlify, and they are most of a query's cost.
   */
  function expand(word: QueryWord, wordCount: number): Map<number, number> {
    const derived = new Map<number, number>()
    const note = (id: number, weight: number) => derived.set(id, Math.max(derived.get(id) ?? 0, weight))
    for (const { word: written, weight } of word.terms) {
      const term = processTerm(written)
      if (!term) continue
      const exact = terms.get(term)
      if (exact !== undefined) note(exact, weight)
      if (weight < 1) continue
      for (const other of withFamily ? wordFamily(term) : []) {
        const id = terms.get(other)
        if (id !== undefined) note(id, FAMILY_WEIGHT)
      }
      if (exact === undefined && term.length >= 3 && wordCount <= 12) {
        for (const [other, id] of terms.atPrefix(term)) {
          const distance = other.length - term.length
          if (distance > 0) note(id, (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * distance))
        }
      }
      if (exact === undefined && term.length >= 5 && wordCount <= 6) {
        for (const [other, [id, distance]] of terms.fuzzyGet(term, Math.round(term.length * 0.2))) {
          if (distance > 0 && !derived.has(id)) note(id, (FUZZY_WEIGHT * other.length) / (other.length + distance))
        }
      }
    }
    return derived
  }
}

/** The `limit` best sections among those scored, after the filter and boosts, best first (a bounded min-heap). */
function topHits(docs: number[], options: RankOptions, scoreOf: (doc: number) => number, sections: Section[]) {
  const { limit, filter, boost } = options
  const headroom = boost ? (options.maxBoost ?? Number.POSITIVE_INFINITY) : 1
  const heap: Array<{ doc: number; score: number }> = []
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (heap[parent]!.score <= heap[i]!.score) return
      ;[heap[parent], heap[i]] = [heap[i]!, heap[parent]!]
      i = parent
    }
  }
  const down = (i: number) => {
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let least = i
      if (left < heap.length && heap[left]!.score < heap[least]!.score) least = left
      if (right < heap.length && heap[right]!.score < heap[least]!.score) least = right
      if (least === i) return
      ;[heap[least], heap[i]] = [heap[i]!, heap[least]!]
      i = least
    }
  }
  for (const doc of docs) {
    let score = scoreOf(doc)
    if (heap.length === limit && score * headroom <= heap[0]!.score) continue
    const section = sections[doc]!
    if (filter && !filter(section)) continue
    if (boost) score *= boost(section)
    if (heap.length < limit) {
      heap.push({ doc, score })
      up(heap.length - 1)
    } else if (score > heap[0]!.score) {
      heap[0] = { doc, score }
      down(0)
    }
  }
  return heap.sort((a, b) => b.score - a.score || a.doc - b.doc).map(({ doc, score }) => ({ section: sections[doc]!, score }))
}

/**
 * Counts each section's terms field by field, then lays the postings out term by term with a counting sort. Hash
 * lookups (not the radix tree) and no per-term maps while counting: the 10k-page index builds ~3x faster this way.
 */
function buildPostings(sections: Section[]): Postings {
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
