// The search hot path: POST /discovery/v1/search/{domain} on Docent (request id, method check, body limit, CORS,
// assistant key, rate limits, validation, search) beside a bare Hono app doing the same validation and search over
// the same index, in the same run and process (bench/side-by-side.ts). Docent runs on the default store (PGlite;
// BENCH_STORE names another). Queries are the search-quality questions: what readers ask.
// Target (issue 15): Docent reaches ≥ 0.7× the bare app's requests/s. Loopback only; every phase is time-bounded.
import { compare, type Contender, realQuestions, reportComparison, startSideBySide } from '../support.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const concurrency = 16
const TARGET = 0.7

const questions = await realQuestions()
const servers = await startSideBySide()

const searcher = (url: string, headers: Record<string, string>) => (): (() => Promise<boolean>) => {
  let n = 0
  return async () => {
    const response = await fetch(url, {
      method: 'POST',
      // What browsers send; one encoding, so both sides do the same compression work.
      headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip', ...headers },
      body: JSON.stringify({ query: questions[n++ % questions.length], pageSize: 10 }),
    })
    const results = (await response.json()) as unknown[]
    return response.ok && Array.isArray(results)
  }
}

const contenders: Contender[] = [
  { name: 'bare Hono: validate + search', request: searcher(`${servers.bare}/search/demo`, {}) },
  {
    name: `Docent search endpoint (${servers.store})`,
    request: searcher(`${servers.docent}/discovery/v1/search/demo`, { authorization: `Bearer ${servers.key}` }),
  },
]

try {
  console.log(
    `Node ${process.version}, ${concurrency} concurrent keep-alive clients, 2 interleaved rounds × ${seconds} s each, ${questions.length} real questions`,
  )
  const results = await compare(contenders, { seconds, concurrency })
  reportComparison(results, TARGET, `Docent / bare search (${servers.store})`)
} finally {
  servers.stop()
}
