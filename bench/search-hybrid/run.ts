// Hybrid search cost: embedding every section through @ai-sdk/openai against a scripted embeddings server (1536-dim
// hashed bag-of-words vectors, so the figures are Docent's own overhead, not a model's), a reload's re-embedding, and
// query latency p50/p99 hybrid (query embedding round trip + fusion) against BM25 alone.
// `node --import tsx bench/search-hybrid/run.ts [docs-dir] [queries]` (default: the Mintlify corpus if present, else demo/docs).
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createOpenAI } from '@ai-sdk/openai'
import { buildCorpus } from '../../server/search/corpus.ts'
import { readDocsSite } from '../../server/search/docs-site.ts'
import { embedSections, modelEmbedder } from '../../server/search/embeddings.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { startScriptedOpenAI } from '../../tests/support/scripted-openai.ts'
import { percentile } from '../support.ts'

const DIMENSIONS = 1536
const MINTLIFY = '../shared/corpora/mintlify-docs'
const dir = process.argv[2] ?? (existsSync(MINTLIFY) ? MINTLIFY : 'demo/docs')
const questions = (JSON.parse(await readFile('bench/search-quality/questions.json', 'utf8')) as Array<{ question: string }>).map(
  (q) => q.question,
)
const queryCount = Number(process.argv[3] ?? 300)
const queries = Array.from({ length: queryCount }, (_, i) => questions[i % questions.length]!)

function hashedVector(text: string): number[] {
  const vector = new Array<number>(DIMENSIONS).fill(0)
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (!word) continue
    let h = 2166136261
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619)
    vector[(h >>> 0) % DIMENSIONS]! += 1
  }
  return vector
}

const server = await startScriptedOpenAI(() => ({ text: '' }), { embed: hashedVector })
try {
  const embedder = modelEmbedder(createOpenAI({ baseURL: server.baseURL, apiKey: 'none' }).embedding('bench-embedding'))
  const corpus = buildCorpus(readDocsSite(await readDirectory(dir)))
  const sections = corpus.sections.length
  console.log(`${dir}: ${corpus.pages().length} pages, ${sections} sections, ${DIMENSIONS}-dim vectors, ${process.version}`)

  let t0 = performance.now()
  const first = await embedSections(corpus.sections, embedder)
  const embedMs = performance.now() - t0
  console.log(
    `embed all sections: ${(embedMs / 1000).toFixed(2)} s (${((embedMs * 1000) / sections).toFixed(
      0,
    )} µs/section, ${server.embeddingRequests.length} requests), vectors ${((sections * DIMENSIONS * 4) / 2 ** 20).toFixed(1)} MB`,
  )
  t0 = performance.now()
  const again = await embedSections(corpus.sections, embedder, first.cache)
  console.log(`reload with nothing changed: ${again.embedded} sections embedded, ${(performance.now() - t0).toFixed(1)} ms`)

  const { matrix, dimensions } = first
  const hybrid = corpus.withEmbeddings({ matrix, dimensions, embedQuery: async (q) => (await embedder.embed([q]))[0]! })
  const local = corpus.withEmbeddings({ matrix, dimensions, embedQuery: async () => matrix.slice(0, dimensions) })
  const time = async (name: string, run: (query: string) => unknown) => {
    for (const query of queries.slice(0, 20)) await run(query)
    const ms: number[] = []
    for (const query of queries) {
      const start = performance.now()
      await run(query)
      ms.push(performance.now() - start)
    }
    ms.sort((a, b) => a - b)
    console.log(
      `${name.padEnd(44)} p50 ${percentile(ms, 50).toFixed(2)} ms  p99 ${percentile(ms, 99).toFixed(2)} ms  (${ms.length} queries)`,
    )
  }
  await time('BM25 alone', (q) => corpus.search(q, { pageSize: 10 }))
  await time('hybrid, fusion only (query vector at hand)', (q) => local.searchHybrid!(q, { pageSize: 10 }))
  await time('hybrid, with the query embedding round trip', (q) => hybrid.searchHybrid!(q, { pageSize: 10 }))
} finally {
  await server.close()
}
