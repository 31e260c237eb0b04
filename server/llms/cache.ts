import { sha256Hex } from '../keys/keys.ts'

/** A rendered text and its ETag, kept until the corpus revision it was made from changes. */
export interface CachedText {
  body: string
  etag: string
}

/**
 * Keyed by project, file and link base (the base comes from the request's Host when no public URL is set, so the
 * number of entries is bounded: the oldest is dropped past `maxEntries`).
 */
export class TextCache {
  private entries = new Map<string, { revision: string; text: CachedText }>()
  constructor(private readonly maxEntries = 64) {}

  async get(key: string, revision: string, render: () => string): Promise<CachedText> {
    const hit = this.entries.get(key)
    if (hit && hit.revision === revision) return hit.text
    const body = render()
    const text = { body, etag: `"${(await sha256Hex(body)).slice(0, 32)}"` }
    this.entries.delete(key)
    this.entries.set(key, { revision, text })
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
    return text
  }
}
