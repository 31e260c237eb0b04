// Search speed on 10,000 generated pages: parse time (worker threads and one thread), chunk + index build time and heap
// per library, query p50/p99.
// `node --import tsx bench/search-speed/run.ts [pages] [engine,engine] [queries]`
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildCorpus } from '../../server/search/corpus.ts'
import { loadDocsSite, readDocsSite } from '../../server/search/docs-site.ts'
import { ENGINES } from '../../server/search/engines/all.ts'
import type { SearchOptions } from '../../server/search/types.ts'
import { fmt, percentile } from '../support.ts'
import { generateQueries, generateSite } from './generate.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const heapMb = () => {
  gc()
  gc()
  return process.memoryUsage().heapUsed / 2 ** 20
}

const count = Number(process.argv[2] ?? 10_000)
const files = generateSite(count)
const queries = generateQueries(Number(process.argv[4] ?? 500))
// The engines kept only for comparison take 40-1000 ms a query at 10k pages: a smaller sample keeps the run short.
const COMPARISON_QUERIES = process.argv[4] ? queries.length : 100
console.log(`${count} generated pages, ${queries.length} queries, ${process.version} on ${process.platform}/${process.arch}`)

let t0 = performance.now()
readDocsSite({ files, revision: 'bench' })
const oneThreadMs = performance.now() - t0
// As the server loads a site: pages parsed in worker threads (one per core, at most 4), the event loop left free.
let stall = 0
let tick = performance.now()
const ticker = setInterval(() => {
  stall = Math.max(stall, performance.now() - tick)
  tick = performance.now()
}, 5)
t0 = performance.now()
const site = await loadDocsSite({ files, revision: 'bench' }, undefined, {
  onWorkersFailed: (error) => console.log(`worker threads failed: ${error}`),
})
const parseMs = performance.now() - t0
clearInterval(ticker)
console.log(
  `parse MDX + docs.json: ${fmt(parseMs / 1000, 2)} s in worker threads (${availableParallelism()} cores; longest event-loop stall ${fmt(
    stall,
    0,
  )} ms), ` + `${fmt(oneThreadMs / 1000, 2)} s in one thread`,
)

const cases: Array<[string, Omit<SearchOptions, 'pageSize'>]> = [
  ['plain', {}],
  ['filter+currentPath', { filter: { version: 'v2' }, currentPath: '/section-3/page-300' }],
]

const only = process.argv[3]?.split(',')
// The engine in use first: the comparison engines leave hundreds of MB for the collector, which would slow it.
const order = Object.entries(ENGINES).sort(([a], [b]) => Number(b === 'packed') - Number(a === 'packed'))
for (const [name, engine] of order.filter(([name]) => !only || only.includes(name))) {
  const before = heapMb()
  t0 = performance.now()
  const corpus = buildCorpus(site, engine)
  const buildMs = performance.now() - t0
  const heap = heapMb() - before
  console.log(
    `${name.padEnd(10)} sections ${corpus.sections.length}  chunk+index ${fmt(buildMs / 1000, 2)} s  (parse+chunk+index ${fmt(
      (parseMs + buildMs) / 1000,
      2,
    )} s)  heap +${fmt(heap, 0)} MB`,
  )
  for (const [label, options] of cases) {
    const sample = name === 'packed' ? queries : queries.slice(0, COMPARISON_QUERIES)
    // Warm up with one pass over the queries: a server answers queries all day, so the steady state is what counts
    // (a cold first pass measured 1.7-2.1 ms p50 here, the steady state 1.3 ms).
    for (const q of sample) corpus.search(q, { pageSize: 10, ...options })
    const latencies: number[] = []
    for (const q of sample) {
      const start = performance.now()
      corpus.search(q, { pageSize: 10, ...options })
      latencies.push(performance.now() - start)
    }
    latencies.sort((a, b) => a - b)
    console.log(
      `  ${label}: p50 ${fmt(percentile(latencies, 50), 2)} ms  p99 ${fmt(
        percentile(latencies, 99),
        2,
      )} ms  (${sample.length} queries, after a warm-up pass)`,
    )
  }
}
