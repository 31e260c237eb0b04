import type { EmbeddingModel } from 'ai'
import { aiSdk } from '../models/ai-sdk.ts'
import type { Embedder, Section } from './types.ts'

export type { Embedder } from './types.ts'

/** A section's title, heading trail and text, cut where most embedding models stop reading attentively. */
const MAX_EMBEDDED_CHARS = 2_000
/** Two requests at a time: fast enough for a docs site, gentle on a local model server. */
const PARALLEL_REQUESTS = 2
/** Embedding a large site (thousands of sections) takes a minute or two on a hosted model. */
const SECTIONS_TIMEOUT_MS = 5 * 60_000

export function modelEmbedder(model: EmbeddingModel): Embedder {
  return {
    async embed(texts, options) {
      const maxRetries = options?.retries ?? 0
      const { embed, embedMany } = await aiSdk()
      const abortSignal = options?.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined
      if (texts.length === 1) return [unit((await embed({ model, value: texts[0]!, maxRetries, abortSignal })).embedding)]
      // embedMany splits the values into as many requests as the model's per-call limits need.
      const { embeddings } = await embedMany({ model, values: texts, maxRetries, abortSignal, maxParallelCalls: PARALLEL_REQUESTS })
      return embeddings.map(unit)
    },
  }
}

export function embeddingText(section: Section): string {
  const trail = [section.pageTitle, ...section.headings.slice(1)].join(' › ')
  return `${trail}\n\n${section.content}`.slice(0, MAX_EMBEDDED_CHARS)
}

/** Vectors by a hash of the text they embed: a reload re-embeds only the sections whose text changed. */
export type VectorCache = Map<string, Float32Array>

export interface SectionVectors {
  /** One row per section, in the corpus's section order, packed into one array: a query scans it in a single pass. */
  matrix: Float32Array
  dimensions: number
  /** The vectors of this corpus, for the next reload to reuse. */
  cache: VectorCache
  /** How many sections needed the model (the rest came from the cache). */
  embedded: number
}

/** Embeds every section not in `previous`; throws when the model fails (the caller keeps BM25 alone). */
export async function embedSections(sections: Section[], embedder: Embedder, previous?: VectorCache): Promise<SectionVectors> {
  const keys = sections.map((section) => textKey(embeddingText(section)))
  const cache: VectorCache = new Map()
  const missing: number[] = []
  const pending = new Set<string>()
  keys.forEach((key, i) => {
    const known = previous?.get(key)
    if (known) cache.set(key, known)
    else if (!pending.has(key)) {
      pending.add(key)
      missing.push(i)
    }
  })
  if (missing.length > 0) {
    const vectors = await embedder.embed(
      missing.map((i) => embeddingText(sections[i]!)),
      { retries: 1, timeoutMs: SECTIONS_TIMEOUT_MS },
    )
    missing.forEach((i, n) => cache.set(keys[i]!, vectors[n]!))
  }
  const dimensions = cache.values().next().value?.length ?? 0
  const matrix = new Float32Array(keys.length * dimensions)
  keys.forEach((key, i) => {
    const vector = cache.get(key)!
    if (vector.length !== dimensions) {
      throw new Error(`the embedding model returned vectors of ${vector.length} and ${dimensions} dimensions`)
    }
    matrix.set(vector, i * dimensions)
    // The cache keeps views into the matrix, so a corpus holds its vectors once.
    cache.set(key, matrix.subarray(i * dimensions, (i + 1) * dimensions))
  })
  return { matrix, dimensions, cache, embedded: missing.length }
}

/** Scaled to length 1, so a dot product is the cosine similarity. */
export function unit(values: ArrayLike<number>): Float32Array {
  const vector = Float32Array.from(values)
  let norm = 0
  for (const v of vector) norm += v * v
  norm = Math.sqrt(norm)
  if (norm > 0) {
    for (let i = 0; i < vector.length; i++) vector[i]! /= norm
  }
  return vector
}

/** The dot product of `query` and the row of `matrix` at `offset`; unrolled by four, which V8 runs about twice as fast. */
export function dotAt(query: Float32Array, matrix: Float32Array, offset: number): number {
  const n = query.length
  let s0 = 0
  let s1 = 0
  let s2 = 0
  let s3 = 0
  let j = 0
  for (; j + 3 < n; j += 4) {
    s0 += query[j]! * matrix[offset + j]!
    s1 += query[j + 1]! * matrix[offset + j + 1]!
    s2 += query[j + 2]! * matrix[offset + j + 2]!
    s3 += query[j + 3]! * matrix[offset + j + 3]!
  }
  for (; j < n; j++) s0 += query[j]! * matrix[offset + j]!
  return s0 + s1 + s2 + s3
}

/** cyrb53 (a fast 53-bit string hash) plus the length: collisions among one site's sections are not a concern. */
function textKey(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return `${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}:${text.length}`
}
