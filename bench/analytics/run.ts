// Does recording slow answers? The v2 message endpoint of the embedded default (PGlite, demo docs, offline answer
// model) with analytics recording on and off, each in its own server process, measured in alternating rounds (the
// machine is shared: drift hits both alike): time to first byte and to the whole answer, one reader at a time and 8
// at once, and each server's CPU time per answer (what recording costs, whatever else the machine runs). Recording is
// off the answer's path (a queue the store is written from in the background), so the target is a ratio on/off of at
// most 1.10 for the median whole answer. Then: how long the store takes to catch up with what the rounds queued.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fmt, loadLoop, percentile, reportTarget } from '../support.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 1.5)
const rounds = Number(process.env.BENCH_ROUNDS ?? 10)
const questions = [
  'How do percentage rollouts work?',
  'How do I install the JavaScript SDK?',
  'What is a segment?',
  'How do webhooks sign payloads?',
  'Is there a Ruby SDK?',
  'How do I deploy the relay proxy on Kubernetes with Helm?',
]

interface Server {
  name: string
  url: string
  admin: string
  assistant: string
  stop(): void
}

async function start(recording: 'on' | 'off'): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/analytics/server.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_RECORDING: recording },
  })
  const info = await new Promise<{ url: string; admin: string; assistant: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)))
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)))
  })
  return { name: `recording ${recording}`, ...info, stop: () => child.kill() }
}

/** One answer through v2: the first byte, then the whole stream to `[DONE]`. */
function answer(server: Server, ttfb: number[]) {
  let n = 0
  return async () => {
    const started = performance.now()
    const response = await fetch(`${server.url}/discovery/v2/assistant/demo/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${server.assistant}`, origin: 'https://docs.example.com' },
      body: JSON.stringify({
        fp: 'bench',
        currentPath: '/quickstart',
        messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: questions[n++ % questions.length] }] }],
      }),
    })
    const reader = response.body!.getReader()
    let text = ''
    let first = true
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (first) ttfb.push(performance.now() - started)
      first = false
      text += new TextDecoder().decode(value)
    }
    return response.ok && text.trimEnd().endsWith('data: [DONE]')
  }
}

const servers = [await start('off'), await start('on')]
try {
  for (const server of servers) await loadLoop(answer(server, []), { concurrency: 4, durationMs: 1500 }) // warm-up
  console.log(
    `Node ${process.version}, PGlite, offline answer model, loopback HTTP; ${rounds} alternating rounds × ${seconds} s per setting`,
  )
  const cpu = async (server: Server) => ((await (await fetch(`${server.url}/__bench/cpu`)).json()) as { ms: number }).ms
  for (const concurrency of [1, 8]) {
    const totals = servers.map(() => ({ latencies: [] as number[], ttfb: [] as number[], requests: 0, seconds: 0, errors: 0, cpuMs: 0 }))
    const paired: number[] = []
    for (let round = 0; round < rounds; round++) {
      const medians: number[] = []
      // Each round runs both, in alternating order, so a change in the machine's load hits the pair alike.
      const order = round % 2 === 0 ? [0, 1] : [1, 0]
      for (const i of order) {
        const server = servers[i]!
        const before = await cpu(server)
        const result = await loadLoop(answer(server, totals[i]!.ttfb), { concurrency, durationMs: seconds * 1000 })
        // The recording server writes what the round queued within a second after it: that is its cost too.
        await new Promise((resolve) => setTimeout(resolve, 1200))
        totals[i]!.cpuMs += (await cpu(server)) - before
        totals[i]!.latencies.push(...result.latencies)
        totals[i]!.requests += result.requests
        totals[i]!.seconds += result.seconds
        totals[i]!.errors += result.errors
        medians[i] = percentile(result.latencies, 50)
      }
      paired.push(medians[1]! / medians[0]!)
    }
    console.log(`\n${concurrency} reader${concurrency === 1 ? '' : 's'} at a time:`)
    for (const [i, server] of servers.entries()) {
      const t = totals[i]!
      const latencies = t.latencies.sort((a, b) => a - b)
      const ttfb = t.ttfb.sort((a, b) => a - b)
      console.log(
        `  ${server.name.padEnd(14)} ${fmt(t.requests / t.seconds, 0).padStart(5)} answers/s  whole answer p50 ${fmt(percentile(latencies, 50), 2)} ms p99 ${fmt(
          percentile(latencies, 99),
          2,
        )} ms  first byte p50 ${fmt(percentile(ttfb, 50), 2)} ms  CPU ${fmt(t.cpuMs / t.requests, 2)} ms/answer  errors ${t.errors}`,
      )
    }
    const ratio = percentile(
      paired.sort((a, b) => a - b),
      50,
    )
    console.log(
      `  ratio on/off of the median whole answer, median of ${rounds} paired rounds: ${fmt(ratio, 3)} (rounds ${fmt(paired[0]!, 2)}–${fmt(
        paired.at(-1)!,
        2,
      )})`,
    )
    reportTarget(`analytics on/off, median whole answer (${concurrency} at a time)`, `${fmt(ratio, 3)}×`, '≤ 1.10×', ratio <= 1.1)
  }
  // What recording left for the store: the analytics API stores everything still queued before it answers.
  const on = servers[1]!
  const started = performance.now()
  const list = (await (
    await fetch(`${on.url}/v1/analytics/demo/assistant/caller-stats`, { headers: { authorization: `Bearer ${on.admin}` } })
  ).json()) as { total: number }
  console.log(
    `\nrecorded answers: ${list.total}; the store caught up with the queue in ${fmt(performance.now() - started, 0)} ms after the rounds`,
  )
} finally {
  for (const server of servers) server.stop()
}
