/**
 * A least-recently-used cache bounded by the total size of its values (bytes, characters: whatever `sizeOf`
 * counts). A value over a quarter of the limit is not kept: it would push out most of the others.
 */
export class SizedCache<V> {
  private readonly entries = new Map<string, V>()
  private size = 0

  constructor(
    private readonly limit: number,
    private readonly sizeOf: (value: V) => number,
  ) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value)
    if (size > this.limit / 4 || this.entries.has(key)) return
    this.entries.set(key, value)
    this.size += size
    for (const [oldest, old] of this.entries) {
      if (this.size <= this.limit) break
      this.entries.delete(oldest)
      this.size -= this.sizeOf(old)
    }
  }
}
