import type { DateRange } from './analytics-types.ts'

// The few Deno KV types used here (the project type-checks with Node's tsc, which has no Deno lib).
export type KvKey = readonly (string | number | bigint | boolean)[]
export interface KvEntry<T> {
  key: KvKey
  value: T | null
  versionstamp: string | null
}
export interface KvAtomic {
  check(...checks: { key: KvKey; versionstamp: string | null }[]): KvAtomic
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): KvAtomic
  delete(key: KvKey): KvAtomic
  commit(): Promise<{ ok: boolean }>
}
export type KvSelector = { prefix: KvKey } | { prefix: KvKey; start: KvKey } | { prefix: KvKey; end: KvKey } | { start: KvKey; end: KvKey }
export interface Kv {
  get<T>(key: KvKey): Promise<KvEntry<T>>
  getMany<T extends unknown[]>(keys: KvKey[]): Promise<{ [K in keyof T]: KvEntry<T[K]> }>
  set(key: KvKey, value: unknown, options?: { expireIn?: number }): Promise<unknown>
  delete(key: KvKey): Promise<void>
  list<T>(selector: KvSelector, options?: { limit?: number; reverse?: boolean }): AsyncIterable<KvEntry<T>>
  atomic(): KvAtomic
  close(): void
}

/**
 * Deno KV holds at most 64 KiB per value; job conversations and long messages can be larger. A large value is
 * written as parts under its own generation id and the record points to them, so a reader never sees a half write.
 */
const PART_BYTES = 60_000

export const CONFLICT = Symbol('conflict')

/** Retries an optimistic (versionstamp-checked) transaction until it commits. */
export async function retry<T>(attempt: () => Promise<T | typeof CONFLICT>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const result = await attempt()
    if (result !== CONFLICT) return result
    await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * i)))
  }
  throw new Error('Deno KV: too much contention, transaction did not commit')
}

export const ms = (date: Date) => date.getTime()

/** Mutations per atomic commit: well under Deno KV's limit, whatever a batch holds. */
const ATOMIC_ROWS = 100

/** What every Deno KV record class builds on: the connection, values larger than one KV entry, ranges, chunked commits. */
export class KvRecords {
  constructor(protected readonly kv: Kv) {}

  // Large values -------------------------------------------------------------------------------------------

  protected async putLarge(key: KvKey, value: unknown): Promise<unknown> {
    const text = JSON.stringify(value)
    if (text.length <= PART_BYTES / 4) return value
    const generation = crypto.randomUUID()
    const parts = Math.ceil(text.length / (PART_BYTES / 4))
    for (let i = 0; i < parts; i++) {
      await this.kv.set(['part', ...key, generation, i], text.slice(i * (PART_BYTES / 4), (i + 1) * (PART_BYTES / 4)))
    }
    return { $parts: parts, $generation: generation }
  }

  protected async getLarge<T>(key: KvKey, stored: unknown): Promise<T> {
    const ref = stored as { $parts?: number; $generation?: string } | null
    if (!ref || typeof ref !== 'object' || typeof ref.$parts !== 'number') return stored as T
    const keys = Array.from({ length: ref.$parts }, (_, i) => ['part', ...key, ref.$generation!, i] as KvKey)
    let text = ''
    for (let i = 0; i < keys.length; i += 10) {
      const entries = await this.kv.getMany<string[]>(keys.slice(i, i + 10))
      text += entries.map((entry) => entry.value ?? '').join('')
    }
    return JSON.parse(text) as T
  }

  /** Every entry of `prefix` whose time key falls in the range, in time order (newest first when `reverse`). */
  protected async *scan<T>(prefix: KvKey, range: DateRange, options: { reverse?: boolean; end?: KvKey } = {}): AsyncIterable<KvEntry<T>> {
    const selector = { start: [...prefix, ms(range.from)], end: options.end ?? [...prefix, ms(range.to)] }
    yield* this.kv.list<T>(selector, { reverse: options.reverse })
  }

  protected async commitInChunks(ops: Array<(atomic: KvAtomic) => void>) {
    for (let i = 0; i < ops.length; i += ATOMIC_ROWS) {
      const atomic = this.kv.atomic()
      for (const op of ops.slice(i, i + ATOMIC_ROWS)) op(atomic)
      if (!(await atomic.commit()).ok) throw new Error('Deno KV: an analytics write did not commit')
    }
  }
}
