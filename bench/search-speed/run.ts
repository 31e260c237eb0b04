// Search speed on 10,000 generated pages: parse time (worker threads and one thread), chunk + index build time and
// memory per library, query p50/p99 on real questions, and on random words for comparison with older figures.
// The generated pages use the demo's vocabulary (flags, rollouts, SDKs), so the demo's questions of bench/search-quality
// are the real questions that stress the index: they are what the target is judged on. The Mintlify questions, which
// share few words with these pages, are timed apart.
// Target (issue 15): on real questions, p50 < 1 ms and p99 < 5 ms at 10,000 pages.
// `node --import tsx bench/search-speed/run.ts [pages] [engine,engine] [queries]`
import { readdirSync, readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { buildCorpus } from '../../server/search/corpus.ts'
import { loadDocsSite, readDocsSite } from '../../server/search/docs-site.ts'
import { ENGINES } from '../../server/search/engines/all.ts'
import type { SearchOptions } from '../../server/search/types.ts'
import { fmt, percentile, reportTarget } from '../support.ts'
import { generateQueries, generateSite } from './generate.ts'

const TARGET = { p50: 1, p99: 5 }
/** Timed passes over the queries for the engine in use, after the warm-up pass. */
const PASSES = 5

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
/**
 * The JS heap plus what lives outside it, in MiB: `external` holds the backing stores of typed arrays (where the
 * index's postings live) and WASM memories (which `arrayBuffers` leaves out).
 */
const memoryMb = () => {
  gc()
  gc()
  const { heapUsed, external } = process.memoryUsage()
  return { heap: heapUsed / 2 ** 20, arrays: external / 2 ** 20 }
}

const count = Number(process.argv[2] ?? 10_000)
// A mistyped argument ("packed" where the page count goes) built an empty site, and the target "held" at NaN pages.
if (!Number.isInteger(count) || count < 1) {
  console.error(`the first argument is the number of pages, got ${JSON.stringify(process.argv[2])}`)
  process.exit(2)
}
const files = generateSite(count)
const questionsOf = (files: string[]) => [
  ...new Set(
    files.flatMap((file) =>
      (JSON.parse(readFileSync(`bench/search-quality/${file}`, 'utf8')) as Array<{ question: string }>).map((q) => q.question),
    ),
  ),
]
const limit = Number(process.argv[4] ?? 0) || undefined
const real = questionsOf(['questions.json', 'demo-page-questions.json']).slice(0, limit)
const mintlify = questionsOf(readdirSync('bench/search-quality').filter((file) => file.startsWith('mintlify'))).slice(0, limit)
const random = generateQueries(limit ?? 500)
// The engines kept only for comparison take 40-1000 ms a query at 10k pages: a smaller sample keeps the run short.
const COMPARISON_QUERIES = limit ?? 100
console.log(
  `${count} generated pages, ${real.length} real questions (demo), ${mintlify.length} Mintlify questions, ${random.length} random-word queries, ${process.version} on ${process.platform}/${process.arch}`,
)

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

const cases: Array<[string, string[], Omit<SearchOptions, 'pageSize'>]> = [
  ['real questions', real, {}],
  ['real questions, filter+currentPath', real, { filter: { version: 'v2' }, currentPath: '/section-3/page-300' }],
  ['Mintlify questions', mintlify, {}],
  ['random words', random, {}],
]

const only = process.argv[3]?.split(',')
// The engine in use first: the comparison engines leave hundreds of MB for the collector, which would slow it.
const order = Object.entries(ENGINES).sort(([a], [b]) => Number(b === 'packed') - Number(a === 'packed'))
for (const [name, engine] of order.filter(([name]) => !only || only.includes(name))) {
  const before = memoryMb()
  t0 = performance.now()
  const corpus = buildCorpus(site, engine)
  const buildMs = performance.now() - t0
  const after = memoryMb()
  const heap = after.heap - before.heap
  const arrays = after.arrays - before.arrays
  console.log(
    `${name.padEnd(10)} sections ${corpus.sections.length}  chunk+index ${fmt(buildMs / 1000, 2)} s  (parse+chunk+index ${fmt(
      (parseMs + buildMs) / 1000,
      2,
    )} s)  memory +${fmt(heap + arrays, 0)} MB (heap +${fmt(heap, 0)}, typed arrays and WASM +${fmt(arrays, 0)})`,
  )
  for (const [label, queries, options] of cases) {
    const sample = name === 'packed' ? queries : queries.slice(0, COMPARISON_QUERIES)
    // Warm up with one pass over the queries: a server answers queries all day, so the steady state is what counts.
    for (const q of sample) corpus.search(q, { pageSize: 10, ...options })
    // Several passes, each giving its own percentiles, and the median pass quoted: on this machine one pass's p50 moves
    // by a quarter between runs of the same code, the median of five much less.
    const passes = name === 'packed' ? PASSES : 1
    const p50s: number[] = []
    const p99s: number[] = []
    const cpu: number[] = []
    for (let pass = 0; pass < passes; pass++) {
      const latencies: number[] = []
      for (const q of sample) {
        const start = performance.now()
        const used = process.cpuUsage()
        corpus.search(q, { pageSize: 10, ...options })
        const { user, system } = process.cpuUsage(used)
        latencies.push(performance.now() - start)
        cpu.push((user + system) / 1000)
      }
      latencies.sort((a, b) => a - b)
      p50s.push(percentile(latencies, 50))
      p99s.push(percentile(latencies, 99))
    }
    cpu.sort((a, b) => a - b)
    const median = (values: number[]) =>
      percentile(
        [...values].sort((a, b) => a - b),
        50,
      )
    const p50 = median(p50s)
    const p99 = median(p99s)
    const spread =
      passes > 1
        ? ` (${passes} passes, median pass; p50 ${fmt(Math.min(...p50s), 2)}-${fmt(Math.max(...p50s), 2)}, p99 ${fmt(Math.min(...p99s), 2)}-${fmt(
            Math.max(...p99s),
            2,
          )})`
        : ''
    const judged = queries === real && name === 'packed'
    // CPU time is printed beside the wall clock: on a shared machine, waiting for a core inflates the latter.
    console.log(
      `  ${label}: p50 ${fmt(p50, 2)} ms  p99 ${fmt(p99, 2)} ms${spread}  (CPU p50 ${fmt(percentile(cpu, 50), 2)} ms, p99 ${fmt(
        percentile(cpu, 99),
        2,
      )} ms; ${sample.length} queries, after a warm-up pass)${
        judged
          ? `  target p50 < ${TARGET.p50} ms, p99 < ${TARGET.p99} ms: ${p50 < TARGET.p50 && p99 < TARGET.p99 ? 'OK' : 'BELOW TARGET'}`
          : ''
      }`,
    )
    if (judged) {
      reportTarget(
        `search p50, p99 at ${count} pages, ${label}`,
        `${fmt(p50, 2)} ms, ${fmt(p99, 2)} ms`,
        '< 1 ms, < 5 ms',
        p50 < TARGET.p50 && p99 < TARGET.p99,
      )
    }
  }
}
