import { dotAt } from './embeddings.ts'
import type { Corpus, SearchHit, SearchOptions, Section } from './types.ts'

/** The usual reciprocal-rank-fusion constant: a top rank in one list counts, but no single list dominates. */
const RRF_K = 60
/** How deep each ranking goes before fusion: enough for a section that one ranking misses to surface from the other. */
export function candidateCount(pageSize: number): number {
  return Math.max(50, pageSize * 3)
}

/** What a corpus with embeddings keeps for its hybrid search. */
export interface CorpusEmbeddings {
  /** One unit vector per section, in section order, packed row after row. */
  matrix: Float32Array
  dimensions: number
  embedQuery(query: string): Promise<Float32Array>
  /** Told when the query could not be embedded (the search then answers from BM25 alone). */
  onQueryError?(error: unknown): void
}

/** Indexes of the `limit` sections most similar to the query vector among those `allowed`, best first. */
export function nearestSections(
  query: Float32Array,
  embeddings: Pick<CorpusEmbeddings, 'matrix' | 'dimensions'>,
  allowed: (i: number) => boolean,
  limit: number,
): number[] {
  const { matrix, dimensions } = embeddings
  if (query.length !== dimensions || dimensions === 0) {
    throw new Error(`a query vector of ${query.length} dimensions for sections of ${dimensions}`)
  }
  const count = matrix.length / dimensions
  // The best `limit` so far, best first: a section that cannot enter is skipped after one comparison.
  const top: number[] = []
  const scores: number[] = []
  for (let i = 0; i < count; i++) {
    if (!allowed(i)) continue
    const score = dotAt(query, matrix, i * dimensions)
    if (top.length === limit) {
      if (score <= scores[limit - 1]!) continue
      top.pop()
      scores.pop()
    }
    let at = top.length
    while (at > 0 && scores[at - 1]! < score) at--
    top.splice(at, 0, i)
    scores.splice(at, 0, score)
  }
  return top
}

/**
 * Reciprocal rank fusion of rankings (best first), times each section's boost (current page, neighbours, page boost);
 * scores relative to the best hit, as the BM25 search gives them.
 */
export function fuseRankings(rankings: Section[][], boost: (section: Section) => number, options: SearchOptions): SearchHit[] {
  const top = fuse(rankings, boost).slice(0, options.pageSize)
  const best = top[0]?.score ?? 0
  const threshold = options.scoreThreshold ?? 0
  return top.map(({ section, score }) => ({ section, score: best > 0 ? score / best : 0 })).filter((hit) => hit.score >= threshold)
}

/** Reciprocal rank fusion of rankings (best first), times each section's boost: every section, best first, raw scores. */
export function fuse(rankings: Section[][], boost: (section: Section) => number): Array<{ section: Section; score: number }> {
  const fused = new Map<Section, number>()
  for (const ranking of rankings) {
    ranking.forEach((section, rank) => fused.set(section, (fused.get(section) ?? 0) + 1 / (RRF_K + rank + 1)))
  }
  const hits = [...fused].map(([section, score]) => ({ section, score: score * boost(section) }))
  return hits.sort((a, b) => b.score - a.score)
}

/** Hybrid search when the corpus has embeddings, BM25 otherwise: what the assistant, the search endpoint and MCP call. */
export function searchSections(corpus: Corpus, query: string, options: SearchOptions): Promise<SearchHit[]> {
  return corpus.searchHybrid ? corpus.searchHybrid(query, options) : Promise.resolve(corpus.search(query, options))
}
