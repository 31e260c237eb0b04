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
