import type { Admission, CounterLimit } from './types.ts'

interface Counter {
  value: number
  expiresAt: number
}

/**
 * Rate-limit counters kept in this process: the check and the count are one synchronous step, so they are atomic
 * without a lock. For the memory store they are the counters; the embedded PGlite store (owned by one process) counts
 * here and persists changed counters in batches (`drain`), so a request costs no database round trip.
 */
export class LocalCounters {
  private counters = new Map<string, Counter>()
  private dirty = new Set<string>()
  private admits = 0

  /** `persisted`: remember which counters changed, for `drain` (the memory store has nowhere to write them). */
  constructor(private readonly persisted = false) {}

  /** Seeds the counters persisted by an earlier process. */
  load(rows: Array<{ key: string; value: number; expiresAt: Date }>, now: Date) {
    for (const row of rows) {
      if (row.expiresAt.getTime() > now.getTime()) this.counters.set(row.key, { value: row.value, expiresAt: row.expiresAt.getTime() })
    }
  }

  admit(limits: CounterLimit[], now: Date): Admission {
    const at = now.getTime()
    if (++this.admits % 1000 === 0) this.sweep(at)
    const current = limits.map(({ key }) => {
      const counter = this.counters.get(key)
      return counter && counter.expiresAt > at ? counter.value : 0
    })
    const admitted = limits.every((limit, i) => current[i]! < limit.limit)
    if (!admitted) return { admitted, counts: current }
    limits.forEach(({ key, expiresAt }, i) => {
      this.counters.set(key, { value: current[i]! + 1, expiresAt: expiresAt.getTime() })
      if (this.persisted) this.dirty.add(key)
    })
    return { admitted, counts: current.map((value) => value + 1) }
  }

  /** The counters changed since the last drain, to persist. */
  drain(): Array<{ key: string; value: number; expiresAt: Date }> {
    const rows = [...this.dirty].flatMap((key) => {
      const counter = this.counters.get(key)
      return counter ? [{ key, value: counter.value, expiresAt: new Date(counter.expiresAt) }] : []
    })
    this.dirty.clear()
    return rows
  }

  /** Counters a failed write did not persist: written with the next batch. */
  undrain(keys: string[]) {
    for (const key of keys) if (this.counters.has(key)) this.dirty.add(key)
  }

  private sweep(at: number) {
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= at) {
        this.counters.delete(key)
        this.dirty.delete(key)
      }
    }
  }
}
