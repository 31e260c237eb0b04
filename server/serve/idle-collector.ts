/**
 * Gives memory back once the server goes quiet. Loading the docs, a burst of answers or an agent run leave tens of MiB
 * of garbage in V8's heap; V8 collects it, but keeps the pages it grew into until its memory reducer runs, which it
 * arms only after a full collection. A server that never needed one (the demo docs: 70 MiB of heap, 33 MiB of it live)
 * held that memory for good: RSS 235 MiB after 90 idle seconds. A full collection once no request has come for
 * `quietMs`, when the heap has grown by `growthBytes` since the last one, returns it (bench/server-memory).
 *
 * Node only, and only where `gc` is exposed (`npm start` runs `node --expose-gc`); elsewhere `startIdleCollector`
 * returns undefined and nothing changes.
 */
export interface IdleCollectorOptions {
  /** A full, synchronous collection (`globalThis.gc` under `--expose-gc`). */
  gc: () => void
  /** Bytes of JS heap in use (`process.memoryUsage().heapUsed`, `v8.getHeapStatistics().used_heap_size`). */
  heapUsed: () => number
  now?: () => number
  /** How long without a request counts as quiet. */
  quietMs?: number
  /** How much the heap must have grown since the last collection to be worth one. */
  growthBytes?: number
  /** How often the heap is looked at. */
  checkMs?: number
}

export interface IdleCollector {
  /** Call on every request: the server is busy, and a collection now would delay answers. */
  noteRequest(): void
  /** Looks once (the timer calls it every `checkMs`); true when it collected. */
  check(): boolean
  stop(): void
}

const MiB = 2 ** 20

export function idleCollector({
  gc,
  heapUsed,
  now = () => Date.now(),
  quietMs = 10_000,
  growthBytes = 16 * MiB,
  checkMs = 5_000,
}: IdleCollectorOptions): IdleCollector {
  let lastRequest = now()
  let afterLastCollection = heapUsed()
  const collector: IdleCollector = {
    noteRequest() {
      lastRequest = now()
    },
    check() {
      if (now() - lastRequest < quietMs) return false
      if (heapUsed() - afterLastCollection < growthBytes) return false
      gc()
      afterLastCollection = heapUsed()
      return true
    },
    stop() {
      clearInterval(timer)
    },
  }
  const timer = setInterval(collector.check, checkMs)
  // Never what keeps the process alive.
  ;(timer as { unref?: () => void }).unref?.()
  return collector
}

/** The collector over this process's heap, when the runtime exposes `gc`; undefined otherwise. */
export function startIdleCollector(heapUsed: () => number): IdleCollector | undefined {
  const gc = (globalThis as { gc?: () => void }).gc
  return typeof gc === 'function' ? idleCollector({ gc: () => gc(), heapUsed }) : undefined
}
