import { describe, expect, it } from 'vitest'
import { buildCorpus } from './corpus.ts'
import { readDocsSite } from './docs-site.ts'
import { type Embedder, embedSections, unit } from './embeddings.ts'
import { fuseRankings, nearestSections, searchSections } from './hybrid.ts'
import type { Section } from './types.ts'

const section = (path: string): Section => ({
  id: path,
  path,
  url: `/${path}`,
  anchor: '',
  pageTitle: path,
  headings: [path],
  content: `About ${path}.`,
  groups: [],
  tags: [],
})

/** Vectors from letter counts: a deterministic stand-in for an embedding model that counts its calls. */
function letterEmbedder(): Embedder & { inputs: string[] } {
  const inputs: string[] = []
  return {
    inputs,
    async embed(texts) {
      inputs.push(...texts)
      return texts.map((text) =>
        unit(Array.from({ length: 26 }, (_, i) => [...text.toLowerCase()].filter((c) => c.charCodeAt(0) - 97 === i).length + 0.01)),
      )
    },
  }
}

describe('fuseRankings', () => {
  const [a, b, c] = [section('a'), section('b'), section('c')]

  it('ranks a section both rankings agree on first, scores relative to the best hit', () => {
    const hits = fuseRankings(
      [
        [a, b],
        [b, c],
      ],
      () => 1,
      { pageSize: 10 },
    )
    expect(hits.map((hit) => hit.section.path)).toEqual(['b', 'a', 'c'])
    expect(hits[0]!.score).toBe(1)
    expect(hits[1]!.score).toBeLessThan(1)
  })

  it('applies the boost once, after fusion, then pageSize and scoreThreshold', () => {
    const boosted = fuseRankings(
      [
        [a, b],
        [b, c],
      ],
      (s) => (s === c ? 3 : 1),
      { pageSize: 2 },
    )
    expect(boosted.map((hit) => hit.section.path)).toEqual(['c', 'b'])
    expect(
      fuseRankings(
        [
          [a, b],
          [b, c],
        ],
        () => 1,
        { pageSize: 10, scoreThreshold: 0.9 },
      ).map((hit) => hit.section.path),
    ).toEqual(['b'])
    expect(fuseRankings([[], []], () => 1, { pageSize: 10 })).toEqual([])
  })
})

describe('nearestSections', () => {
  const rows = [unit([1, 0]), unit([0.7, 0.7]), unit([0, 1]), unit([0.9, 0.2])]
  const embeddings = { matrix: Float32Array.from(rows.flatMap((row) => [...row])), dimensions: 2 }

  it('orders the allowed sections by cosine similarity, keeping the best `limit`', () => {
    expect(nearestSections(unit([1, 0.1]), embeddings, () => true, 2)).toEqual([0, 3])
    expect(nearestSections(unit([1, 0.1]), embeddings, () => true, 10)).toEqual([0, 3, 1, 2])
    expect(nearestSections(unit([0, 1]), embeddings, () => true, 3)).toEqual([2, 1, 3])
    expect(nearestSections(unit([1, 0.1]), embeddings, (i) => i !== 0, 5)).toEqual([3, 1, 2])
  })

  it('refuses a query vector of other dimensions (the search then falls back to BM25)', () => {
    expect(() => nearestSections(unit([1, 0, 0]), embeddings, () => true, 2)).toThrow(/3 dimensions for sections of 2/)
  })
})

describe('embedSections', () => {
  it('embeds each distinct text once and reuses the vectors of unchanged sections', async () => {
    const embedder = letterEmbedder()
    const first = await embedSections([section('a'), section('b'), section('a')], embedder)
    expect(first.embedded).toBe(2)
    expect(first.dimensions).toBe(26)
    const row = (vectors: typeof first, i: number) => [...vectors.matrix.subarray(i * 26, (i + 1) * 26)]
    expect(row(first, 0)).toEqual(row(first, 2))
    const second = await embedSections([section('a'), section('c')], embedder, first.cache)
    expect(second.embedded).toBe(1)
    expect(row(second, 0)).toEqual(row(first, 0))
    expect(embedder.inputs).toHaveLength(3)
    expect(embedder.inputs.at(-1)).toMatch(/^c\n\nAbout c\.$/)
    expect(second.cache.size).toBe(2)
  })
})

describe('corpus hybrid search', () => {
  const site = readDocsSite({
    revision: 'r',
    files: new Map([
      ['zebra.md', '# Zebra\n\nStripes zzz.\n'],
      ['apple.md', '# Apple\n\nAn apple a day.\n'],
    ]),
  })

  it('has no hybrid search until given vectors; searchSections then falls back to BM25', async () => {
    const corpus = buildCorpus(site)
    expect(corpus.searchHybrid).toBeUndefined()
    expect((await searchSections(corpus, 'apple', { pageSize: 5 })).map((hit) => hit.section.path)).toEqual(['apple'])
    expect(() => corpus.withEmbeddings({ matrix: new Float32Array(2), dimensions: 2, embedQuery: async () => unit([1]) })).toThrow(
      /1 vectors for 2 sections/,
    )
  })

  it('finds by vector what BM25 misses, and answers from BM25 when the query cannot be embedded', async () => {
    const base = buildCorpus(site)
    const embedder = letterEmbedder()
    const { matrix, dimensions } = await embedSections(base.sections, embedder)
    const errors: unknown[] = []
    let down = false
    const corpus = base.withEmbeddings({
      matrix,
      dimensions,
      embedQuery: async (query) => {
        if (down) throw new Error('down')
        return (await embedder.embed([query]))[0]!
      },
      onQueryError: (error) => errors.push(error),
    })
    expect(corpus.search('zzzz', { pageSize: 5 })).toEqual([])
    expect((await searchSections(corpus, 'zzzz', { pageSize: 1 }))[0]!.section.path).toBe('zebra')
    down = true
    expect(await searchSections(corpus, 'apple', { pageSize: 5 })).toEqual(corpus.search('apple', { pageSize: 5 }))
    expect(errors).toHaveLength(1)
  })
})
