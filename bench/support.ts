/** Small helpers shared by the benchmarks: percentiles and a bounded, loopback-only load loop. */

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index]!
}

export interface LoadResult {
  requests: number
  errors: number
  seconds: number
  perSecond: number
  latencies: number[]
}

/**
 * Runs `task` with `concurrency` workers until `durationMs` passes (or `maxRequests` is reached). Each task
 * resolves to true on success. Bounded in time and count, as every load test here must be.
 */
export async function loadLoop(
  task: () => Promise<boolean>,
  { concurrency, durationMs, maxRequests = 1_000_000 }: { concurrency: number; durationMs: number; maxRequests?: number },
): Promise<LoadResult> {
  const latencies: number[] = []
  let errors = 0
  let started = 0
  const start = performance.now()
  const deadline = start + durationMs
  const worker = async () => {
    while (performance.now() < deadline && started < maxRequests) {
      started++
      const t0 = performance.now()
      const ok = await task().catch(() => false)
      latencies.push(performance.now() - t0)
      if (!ok) errors++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  return { requests: latencies.length, errors, seconds, perSecond: latencies.length / seconds, latencies }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits)

/** The questions of the search-quality set: what readers really ask (longer and costlier than invented words). */
export async function realQuestions(): Promise<string[]> {
  const { readFileSync } = await import('node:fs')
  const items = JSON.parse(readFileSync('bench/search-quality/questions.json', 'utf8')) as Array<{ question: string }>
  return items.map((item) => item.question)
}

export interface SideBySide {
  docent: string
  bare: string
  key: string
  store: string
  stop(): void
}

/**
 * Starts bench/side-by-side.ts (Docent and the bare Hono baseline in one child process) and waits for its URLs. The
 * child runs with `npm start`'s Node options, so the figures are those of the server readers get.
 */
export async function startSideBySide(env: Record<string, string> = {}): Promise<SideBySide> {
  const { spawn } = await import('node:child_process')
  const { createInterface } = await import('node:readline')
  const { NPM_START_NODE_OPTIONS } = await import('../tests/support/server-process.ts')
  const child = spawn(process.execPath, [...NPM_START_NODE_OPTIONS, '--import', 'tsx', 'bench/side-by-side.ts'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  })
  const urls = await new Promise<Omit<SideBySide, 'stop'>>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench servers exited with ${code}`)))
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line)))
  })
  return { ...urls, stop: () => child.kill('SIGTERM') }
}

export interface Contender {
  name: string
  /** One request; resolves true when it succeeded. `ttfb` receives its time to first byte, if it measures one. */
  request: (ttfb: number[]) => () => Promise<boolean>
}

export interface Comparison {
  name: string
  perSecond: number
  errors: number
  latencies: number[]
  ttfb: number[]
}

/**
 * Loads each contender in turn, `rounds` times interleaved, so drift on a shared machine hits every side alike; a
 * warm-up round first. Returns requests/s over all rounds.
 */
export async function compare(
  contenders: Contender[],
  { rounds = 2, seconds, concurrency }: { rounds?: number; seconds: number; concurrency: number },
): Promise<Comparison[]> {
  for (const contender of contenders) await loadLoop(contender.request([]), { concurrency, durationMs: 1500 })
  const totals = contenders.map((contender) => ({
    name: contender.name,
    requests: 0,
    errors: 0,
    seconds: 0,
    latencies: [] as number[],
    ttfb: [] as number[],
  }))
  for (let round = 0; round < rounds; round++) {
    for (const [i, contender] of contenders.entries()) {
      const total = totals[i]!
      const result = await loadLoop(contender.request(total.ttfb), { concurrency, durationMs: seconds * 1000 })
      total.requests += result.requests
      total.errors += result.errors
      total.seconds += result.seconds
      total.latencies.push(...result.latencies)
    }
  }
  return totals.map((total) => ({
    name: total.name,
    perSecond: total.requests / total.seconds,
    errors: total.errors,
    latencies: total.latencies.sort((a, b) => a - b),
    ttfb: total.ttfb.sort((a, b) => a - b),
  }))
}

export interface TargetLine {
  name: string
  figure: string
  target: string
  holds: boolean
}

const TARGET_LINE = /^\s*TARGET (.+?): (.+) vs (.+): (holds|MISSED)\s*$/

/**
 * Prints the line `npm run bench` collects into its summary: `TARGET <name>: <figure> vs <target>: holds|MISSED`.
 * Every bench with a target prints one per target it is judged by; returns `holds`.
 *
 * @example
 * reportTarget('search p50 at 10k pages', `${p50.toFixed(2)} ms`, '< 1 ms', p50 < 1)
 */
export function reportTarget(name: string, figure: string, target: string, holds: boolean): boolean {
  console.log(`TARGET ${name}: ${figure} vs ${target}: ${holds ? 'holds' : 'MISSED'}`)
  return holds
}

export function parseTargetLine(line: string): TargetLine | null {
  const match = TARGET_LINE.exec(line)
  return match ? { name: match[1]!, figure: match[2]!, target: match[3]!, holds: match[4] === 'holds' } : null
}

/** Prints one line per contender and the ratio of the second to the first against its target. */
export function reportComparison(results: Comparison[], target: number, label: string): boolean {
  for (const result of results) {
    const ttfb = result.ttfb.length ? `  TTFB p50 ${fmt(percentile(result.ttfb, 50), 2)} ms` : ''
    console.log(
      `  ${result.name.padEnd(46)} ${fmt(result.perSecond, 0).padStart(6)} req/s  p50 ${fmt(percentile(result.latencies, 50), 2)} ms  p99 ${fmt(
        percentile(result.latencies, 99),
        2,
      )} ms${ttfb}  errors ${result.errors}`,
    )
  }
  const ratio = results[1]!.perSecond / results[0]!.perSecond
  const holds = ratio >= target && results.every((result) => result.errors === 0)
  const errors = results.reduce((total, result) => total + result.errors, 0)
  return reportTarget(label, `${fmt(ratio, 2)}×${errors ? ` (${errors} errors)` : ''}`, `≥ ${target}×`, holds)
}
