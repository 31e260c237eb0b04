// The answer hot path: POST /discovery/v2/assistant/{domain}/message on Docent (auth, rate limits, thread, retrieval
// over demo/docs, prompt, streamText, our encoder, thread storage) beside a bare Hono app doing the same retrieval →
// prompt → model → encoder work with nothing else, in the same run and process (bench/side-by-side.ts), both on the
// same zero-latency scripted model. Docent runs on the default store (PGlite; BENCH_STORE names another). Questions
// are the search-quality set's. Target (issue 15): Docent reaches ≥ 0.85× the bare app's requests/s.
// Loopback only; every phase is time-bounded. Then the offline-answer model's quality on the same questions.
import { compare, type Contender, realQuestions, reportComparison, startSideBySide } from '../support.ts'
import { offlineQuality } from './offline-quality.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const concurrency = 16
const TARGET = 0.85

const questions = await realQuestions()
const servers = await startSideBySide()

/** One request: time to the first body chunk, then the whole stream must arrive and end with [DONE]. */
const asker =
  (url: string, headers: Record<string, string>) =>
  (ttfb: number[]): (() => Promise<boolean>) => {
    let n = 0
    return async () => {
      const started = performance.now()
      const text = questions[n++ % questions.length]!
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({
          fp: 'anonymous',
          messages: [{ id: `q${n}`, role: 'user', parts: [{ type: 'text', text }] }],
        }),
      })
      const reader = response.body!.getReader()
      const decoder = new TextDecoder()
      let body = ''
      for (let first = true; ; first = false) {
        const { done, value } = await reader.read()
        if (done) break
        if (first) ttfb.push(performance.now() - started)
        body += decoder.decode(value, { stream: true })
      }
      return response.ok && body.includes('"text-delta"') && body.trimEnd().endsWith('data: [DONE]')
    }
  }

const contenders: Contender[] = [
  { name: 'bare Hono: retrieval → prompt → model → encoder', request: asker(`${servers.bare}/chat/demo`, {}) },
  {
    name: `Docent v2 message endpoint (${servers.store})`,
    request: asker(`${servers.docent}/discovery/v2/assistant/demo/message`, { authorization: `Bearer ${servers.key}` }),
  },
]

try {
  console.log(
    `Node ${process.version}, ${concurrency} concurrent keep-alive clients, 2 interleaved rounds × ${seconds} s each, ${questions.length} real questions`,
  )
  reportComparison(await compare(contenders, { seconds, concurrency }), TARGET, `Docent / bare v2 message (${servers.store})`)
} finally {
  servers.stop()
}
await offlineQuality()
