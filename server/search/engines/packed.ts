import { parseQuery, type QueryWord, type SearchQuery } from '../query.ts'
import { MAX_QUERY_TERMS } from '../terms.ts'
import { compoundParts, processTerm, wordFamily } from '../terms.ts'
import type { Section } from '../types.ts'
import { FIELD_BOOST, type RankOptions, type SectionIndex } from './types.ts'
import { B, buildPostings, D, FIELDS, highestImpacts, SATURATION } from './packed-postings.ts'
import { TopHeap } from './top-heap.ts'

/** Prefix and typo weights, as MiniSearch's. */
const PREFIX_WEIGHT = 0.3
/** Weight of another word of the same family (`approve` for `approval`): the stemmer cuts only inflections. */
const FAMILY_WEIGHT = 0.4
const FUZZY_WEIGHT = 0.3
/** Most completions (and most near spellings) a word the index lacks is searched by. */
const MAX_EXPANSIONS = 8

/**
 * MiniSearch's ranking (BM25+ per field, field weights, prefix and typo matches through MiniSearch's own radix tree,
 * scores times the number of query words matched) over packed postings: all of them in two typed arrays, scores
 * summed into a preallocated array. With MiniSearch's saturation (MINISEARCH_SATURATION) it gives the same results as
 * the `minisearch` engine; by default it saturates the short fields less (SATURATION). Several times faster on large
 * corpora because no per-document objects are made while scoring.
 */
export function packedIndex(
  sections: Section[],
  options: {
    family?: boolean
    /** BM25's k1 per field: SATURATION, or MINISEARCH_SATURATION to rank as MiniSearch. */
    saturation?: readonly number[]
    /**
     * A section's length as read, with the links its indexed content leaves out (the default), or as indexed, as
     * MiniSearch counts it. As indexed, an overview full of links got shorter, so its other words weighed more: the demo
     * lost a question from the first 5.
     */
    lengthAsRead?: boolean
  } = {},
): SectionIndex {
  const withFamily = options.family ?? true
  const saturation = options.saturation ?? SATURATION
  const count = sections.length
  const { terms, offsets, docs, freqs, lengths } = buildPostings(sections, { lengthAsRead: options.lengthAsRead ?? true })
  const averages = lengths.map((values) => values.reduce((sum, n) => sum + n, 0) / Math.max(count, 1))
  const boosts = FIELDS.map((field) => FIELD_BOOST[field])

  const norms = averages.map((average, field) => saturation[field]! / average)
  const maxImpact = highestImpacts(offsets, docs, freqs, lengths, saturation, norms)
  // Reused between queries: which query words the section being scored matched (a stamp per word, no clearing).
  let stamp = 0
  const wordStamps = new Int32Array(MAX_QUERY_TERMS)
  let queries = 0
  const scoredEarly = new Int32Array(count)

  /** One posting list to walk: a term's postings in one field, with what each match is worth. */
  interface Cursor {
    /** The query word it stands for, or -1 when its word does not count (context). */
    word: number
    factor: number
    /** BM25+'s constants for the field: k1 + 1, k1 (1 - b), b over the field's average length; and its lengths. */
    k1: number
    base: number
    bNorm: number
    lengths: Float32Array
    at: number
    end: number
    /** The most any one of its postings can add. */
    most: number
  }

  const cursorsOf = (words: QueryWord[]): Cursor[] => {
    const cursors: Cursor[] = []
    words.forEach((word, w) => {
      for (const [id, weight] of expand(word, words.length)) {
        for (let f = 0; f < FIELDS.length; f++) {
          const from = offsets[id * FIELDS.length + f]!
          const to = offsets[id * FIELDS.length + f + 1]!
          if (from === to) continue
          const matches = to - from
          const idf = Math.log(1 + (count - matches + 0.5) / (matches + 0.5))
          const factor = weight * word.weight * boosts[f]! * idf
          const list = id * FIELDS.length + f
          cursors.push({
            word: word.counts ? w : -1,
            factor,
            k1: saturation[f]! + 1,
            base: saturation[f]! * (1 - B),
            bNorm: B * norms[f]!,
            lengths: lengths[f]!,
            at: from,
            end: to,
            most: factor * maxImpact[list]!,
          })
        }
      }
    })
    return cursors
  }

  /** What the posting under a cursor adds to its section's score (BM25+). */
  const impact = (cursor: Cursor) => {
    const tf = freqs[cursor.at]!
    return cursor.factor * (D + (tf * cursor.k1) / (tf + cursor.base + cursor.bNorm * cursor.lengths[docs[cursor.at]!]!))
  }

  /** Moves a cursor to its first posting at or after section `doc` (galloping, then a binary search). */
  const seek = (cursor: Cursor, doc: number) => {
    let low = cursor.at
    if (low >= cursor.end || docs[low]! >= doc) return
    let step = 1
    while (low + step < cursor.end && docs[low + step]! < doc) {
      low += step
      step *= 2
    }
    let high = Math.min(low + step, cursor.end)
    while (low < high) {
      const mid = (low + high) >> 1
      if (docs[mid]! < doc) low = mid + 1
      else high = mid
    }
    cursor.at = low
  }

  /**
   * The `limit` best sections, section by section over the query's posting lists, skipping those that cannot reach
   * the top (MaxScore): lists whose best postings together cannot beat the current `limit`-th score, even times the
   * number of words they stand for and the largest boost, only score sections the other lists found. A question's
   * commonest words ("flag" on a flags product's site) are mostly such lists. Same results as scoring every posting.
   */
  const rank = (cursors: Cursor[], options: RankOptions) => {
    const { limit, filter, boost } = options
    const favoured = boost && options.favoured?.length ? options.favoured : undefined
    const headroom = !boost ? 1 : favoured ? (options.restBoost ?? 1) : (options.maxBoost ?? Number.POSITIVE_INFINITY)
    // Any order of the lists gives the same results; the order decides how many can be left to skipping. Each list
    // left out of the essential ones spends part of the bar (its best posting) and saves its length: a rare completion
    // of a word being typed (a few postings, each worth much) is cheap to read in full, a common word's long list is
    // worth skipping. Cheapest bar per posting saved first. Measured by bench/search-speed (10k pages, real questions):
    // sections read 963k → 727k, p50 1.05 → 0.81 ms, p99 6.8 → 4.2 ms against sorting by the best posting alone.
    cursors.sort((a, b) => a.most / (a.end - a.at) - b.most / (b.end - b.at))
    const n = cursors.length
    // Bounds for a section found only by cursors[0..i): their best impacts summed, times the words they stand for.
    const prefixMost = new Float64Array(n + 1)
    const prefixWords = new Int32Array(n + 1)
    const words = new Set<number>()
    for (let i = 0; i < n; i++) {
      prefixMost[i + 1] = prefixMost[i]! + cursors[i]!.most
      if (cursors[i]!.word >= 0) words.add(cursors[i]!.word)
      prefixWords[i + 1] = words.size
    }
    const allWords = words.size
    const heap = new TopHeap(limit)
    // The section being scored: its score so far and how many query words it matched (stamped per word).
    let sum = 0
    let matched = 0
    const start = () => {
      stamp++
      sum = 0
      matched = 0
    }
    const take = (cursor: Cursor) => {
      sum += impact(cursor)
      if (cursor.word >= 0 && wordStamps[cursor.word] !== stamp) {
        wordStamps[cursor.word] = stamp
        matched++
      }
    }
    const offer = (doc: number, section: Section, score: number) => {
      if (boost) score *= boost(section, doc)
      return heap.offer(doc, score)
    }
    // The sections a boost may raise most are scored first, each in full, so that the rest meets a higher bar.
    const early = favoured ?? []
    const starts = cursors.map((cursor) => cursor.at)
    for (const doc of early) {
      const section = sections[doc]!
      if (filter && !filter(section, doc)) continue
      start()
      for (const cursor of cursors) {
        seek(cursor, doc)
        if (cursor.at < cursor.end && docs[cursor.at] === doc) take(cursor)
      }
      if (sum > 0) offer(doc, section, sum * Math.max(matched, 1))
    }
    cursors.forEach((cursor, i) => (cursor.at = starts[i]!))
    // Those were offered already: marked with this query's stamp.
    const query = ++queries
    for (const doc of early) scoredEarly[doc] = query
    let essential = 0
    const raiseBar = () => {
      while (essential < n && prefixMost[essential + 1]! * Math.max(1, prefixWords[essential + 1]!) * headroom <= heap.floor) essential++
    }
    raiseBar()
    for (;;) {
      let doc = count
      for (let i = essential; i < n; i++) {
        const cursor = cursors[i]!
        if (cursor.at < cursor.end && docs[cursor.at]! < doc) doc = docs[cursor.at]!
      }
      if (doc === count) break
      start()
      for (let i = essential; i < n; i++) {
        const cursor = cursors[i]!
        if (cursor.at < cursor.end && docs[cursor.at] === doc) {
          take(cursor)
          cursor.at++
        }
      }
      if (scoredEarly[doc] === query) continue
      const section = sections[doc]!
      if (filter && !filter(section, doc)) continue
      // This section's own boost bounds what the lists not yet read can make of it.
      const factor = boost ? boost(section, doc) : 1
      let hopeless = false
      // The words it matched may be among those the lists left stand for: it can match no more than the query has.
      for (let i = essential - 1; i >= 0; i--) {
        if ((sum + prefixMost[i + 1]!) * Math.max(1, Math.min(allWords, matched + prefixWords[i + 1]!)) * factor <= heap.floor) {
          hopeless = true
          break
        }
        const cursor = cursors[i]!
        seek(cursor, doc)
        if (cursor.at < cursor.end && docs[cursor.at] === doc) {
          take(cursor)
        }
      }
      if (hopeless || !heap.offer(doc, sum * Math.max(matched, 1) * factor)) continue
      raiseBar()
    }
    return heap.best().map(({ doc, score }) => ({ section: sections[doc]!, score }))
  }

  /**
   * A query word's index terms (see expand), kept while the word lives: a search reads them, then the ranking reads them
   * again for the pages it found (wordsInRanges). Prefix and typo expansions are most of a query's cost.
   */
  const expanded = new WeakMap<QueryWord, { wordCount: number; terms: Map<number, number> }>()

  /** How many of the query's words `counted` accepts occur in sections `from` to `to` - 1 (their forms found once). */
  const wordsInRanges = (query: SearchQuery, counted: (word: QueryWord) => boolean = (word) => word.counts) => {
    const forms = query.words.filter(counted).map((word) => [...expand(word, query.words.length).keys()])
    return (from: number, to: number) => forms.filter((ids) => ids.some((id) => occursIn(id, from, to))).length
  }

  return {
    wordsInRanges,
    unknownWords(query: SearchQuery, counts?: (section: number) => boolean) {
      // A query longer than any `expand` reads for typos and completions: only the words' own forms and synonyms count.
      const noTypos = Number.POSITIVE_INFINITY
      const known = (id: number) => !counts || occursWhere(id, counts)
      const knownTerm = (written: string) => {
        const id = terms.get(processTerm(written) ?? '')
        return id !== undefined && known(id)
      }
      // A word made of a combining prefix and a word the docs use ("autocapture" where the docs say "automatically
      // capture", "noindex", "subpages") is the docs' subject written another way, not another subject.
      const compound = (written: string) => {
        const base = compoundParts(written)?.[1]
        return base !== undefined && knownTerm(base)
      }
      return query.words
        .filter((word) => word.counts && ![...expand(word, noTypos).keys()].some(known) && !compound(word.terms[0]!.word))
        .map((word) => word.terms[0]!.word)
    },
    search(query: string | SearchQuery, options: RankOptions) {
      const { words } = typeof query === 'string' ? parseQuery(query) : query
      return rank(cursorsOf(words.slice(0, MAX_QUERY_TERMS)), options)
    },
  }

  /** Whether a term occurs in a section `accept` accepts: its postings in turn, until one is. */
  function occursWhere(termId: number, accept: (section: number) => boolean): boolean {
    for (let at = offsets[termId * FIELDS.length]!; at < offsets[(termId + 1) * FIELDS.length]!; at++) if (accept(docs[at]!)) return true
    return false
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
    const known = expanded.get(word)
    if (known?.wordCount === wordCount) return known.terms
    const terms = expandAnew(word, wordCount)
    expanded.set(word, { wordCount, terms })
    return terms
  }

  function expandAnew(word: QueryWord, wordCount: number): Map<number, number> {
    const derived = new Map<number, number>()
    const note = (id: number, weight: number) => derived.set(id, Math.max(derived.get(id) ?? 0, weight))
    for (const { word: written, weight } of word.terms) {
      const term = processTerm(written)
      if (!term) continue
      const exact = terms.get(term)
      if (exact !== undefined) note(exact, weight)
      if (weight < 1) continue
      // And the automatic kind of the same action ("merge" → "automerge", "generate" → "autogenerate"): a reader whose
      // PR "never merges" asks about automerge. Only "auto": "view" is not "preview", nor "publish" "unpublish".
      const automatic = term.length >= 4 ? [`auto${term}`] : []
      for (const other of withFamily ? [...wordFamily(term), ...automatic] : []) {
        const id = terms.get(other)
        if (id !== undefined) note(id, FAMILY_WEIGHT)
      }
      if (exact === undefined && term.length >= 3 && wordCount <= 12) {
        const completions: Array<[number, number]> = []
        for (const [other, id] of terms.atPrefix(term)) {
          const distance = other.length - term.length
          if (distance > 0) completions.push([id, (PREFIX_WEIGHT * other.length) / (other.length + 0.3 * distance)])
        }
        for (const [id, weight] of closest(completions)) note(id, weight)
      }
      if (exact === undefined && term.length >= 5 && wordCount <= 6) {
        const near: Array<[number, number]> = []
        for (const [other, [id, distance]] of terms.fuzzyGet(term, Math.round(term.length * 0.2))) {
          if (distance > 0 && !derived.has(id)) near.push([id, (FUZZY_WEIGHT * other.length) / (other.length + distance)])
        }
        for (const [id, weight] of closest(near)) note(id, weight)
      }
    }
    return derived
  }
}

/**
 * The best-weighted of a word's completions or near spellings: a word still being typed ("web") may begin hundreds of
 * words, each a posting list to walk, and the closest are the likely ones.
 */
function closest(candidates: Array<[number, number]>): Array<[number, number]> {
  return candidates.length <= MAX_EXPANSIONS ? candidates : candidates.sort((a, b) => b[1] - a[1]).slice(0, MAX_EXPANSIONS)
}
