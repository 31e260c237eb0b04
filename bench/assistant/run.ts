// Requests/s and time to first byte of POST /discovery/v2/assistant/{domain}/message (auth, three rate limits,
// thread, retrieval over demo/docs, streamText, our encoder, thread storage) beside a bare Hono route streaming the
// same zero-latency scripted model through createUIMessageStreamResponse with nothing else, in the same run.
// Target: Docent reaches at least 0.7 of the bare route's requests/s. Loopback only; every phase is time-bounded.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fmt, loadLoop, percentile } from '../support.ts'
import { offlineQuality } from './offline-quality.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const concurrency = 16
const questions = [
  'How do percentage rollouts work?',
  'How do I install the JavaScript SDK?',
  'What is a segment?',
  'How do webhooks sign payloads?',
]

const child = spawn(process.execPath, ['--import', 'tsx', 'bench/assistant/servers.ts'], { stdio: ['ignore', 'pipe', 'inherit'] })
const { docent, bare, key } = await new Promise<{ docent: string; bare: string; key: string }>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)))
  createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)))
})

interface Target {
  name: string
  url: string
  headers: Record<string, string>
  body: (question: string) => unknown
}
const targets: Target[] = [
  {
    name: 'bare Hono + createUIMessageStreamResponse',
    url: `${bare}/chat`,
    headers: {},
    body: (q) => ({ messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: q }] }] }),
  },
  {
    name: 'Docent v2 message endpoint',
    url: `${docent}/discovery/v2/assistant/demo/message`,
    headers: { authorization: `Bearer ${key}` },
    body: (q) => ({ fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: q }] }] }),
  },
]

/** One request: time to the first body chunk, then the whole stream must arrive and end with [DONE]. */
function request(target: Target, ttfb: number[]) {
  let n = 0
  return async () => {
    const started = performance.now()
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: JSON.stringify(target.body(questions[n++ % questions.length]!)),
    })
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    let first = true
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (first) ttfb.push(performance.now() - started)
      first = false
      text += decoder.decode(value, { stream: true })
    }
    return response.ok && text.includes('"text-delta"') && text.trimEnd().endsWith('data: [DONE]')
  }
}

try {
  for (const target of targets) await loadLoop(request(target, []), { concurrency, durationMs: 1000 }) // warm-up (and corpus load)
  console.log(
    `Node ${process.version}, ${concurrency} concurrent keep-alive clients over loopback HTTP, 2 rounds × ${seconds} s per target`,
  )
  const totals = targets.map(() => ({ requests: 0, errors: 0, seconds: 0, ttfb: [] as number[] }))
  // Two interleaved rounds, so drift on a shared machine hits both sides alike.
  for (let round = 0; round < 2; round++) {
    for (const [i, target] of targets.entries()) {
      const result = await loadLoop(request(target, totals[i]!.ttfb), { concurrency, durationMs: seconds * 1000 })
      totals[i]!.requests += result.requests
      totals[i]!.errors += result.errors
      totals[i]!.seconds += result.seconds
    }
  }
  const perSecond = totals.map((t) => t.requests / t.seconds)
  for (const [i, target] of targets.entries()) {
    const ttfb = totals[i]!.ttfb.sort((a, b) => a - b)
    console.log(
      `${target.name.padEnd(44)} ${fmt(perSecond[i]!, 0).padStart(6)} req/s  TTFB p50 ${fmt(percentile(ttfb, 50), 2)} ms  p99 ${fmt(
        percentile(ttfb, 99),
        2,
      )} ms  errors ${totals[i]!.errors}`,
    )
  }
  const ratio = perSecond[1]! / perSecond[0]!
  console.log(`ratio Docent / bare: ${fmt(ratio, 2)} (target ≥ 0.70) ${ratio >= 0.7 ? 'OK' : 'BELOW TARGET'}`)
} finally {
  child.kill()
}
await offlineQuality()
