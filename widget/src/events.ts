import type { DocentEvent, MAX_EVENTS_BODY_BYTES, MAX_EVENTS_PER_BODY } from '../../shared/events.ts'

// The server's limits, typed from shared/ (a type-only import keeps zod's schemas out of the widget's bundle).
const MAX_BYTES: typeof MAX_EVENTS_BODY_BYTES = 8192
const MAX_EVENTS: typeof MAX_EVENTS_PER_BODY = 20

/**
 * Sends analytics events (a settled search, a result or source click) to `/discovery/v1/events/{domain}` in small
 * batches with `keepalive`, so a click that leaves the page is still reported. A failure never reaches the reader;
 * a server without the endpoint (404/405) is not asked again during this page view.
 */
export class EventReporter {
  #queue: DocentEvent[] = []
  #timer: ReturnType<typeof setTimeout> | undefined
  #disabled = false

  constructor(private readonly endpoint: () => { url: string; apiKey: string }) {
    addEventListener('pagehide', () => this.flush())
  }

  report(event: DocentEvent) {
    if (this.#disabled) return
    this.#queue.push(event)
    clearTimeout(this.#timer)
    this.#timer = setTimeout(() => this.flush(), 1000)
  }

  flush() {
    clearTimeout(this.#timer)
    while (this.#queue.length && !this.#disabled) {
      const batch: DocentEvent[] = []
      while (this.#queue.length && batch.length < MAX_EVENTS) {
        const next = this.#queue[0]!
        if (batch.length && new TextEncoder().encode(JSON.stringify({ events: [...batch, next] })).length > MAX_BYTES) break
        batch.push(this.#queue.shift()!)
      }
      this.#send(batch)
    }
  }

  #send(events: DocentEvent[]) {
    const { url, apiKey } = this.endpoint()
    fetch(url, {
      method: 'POST',
      keepalive: true,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
      },
      body: JSON.stringify({ events }),
    }).then(
      (response) => {
        if (response.status === 404 || response.status === 405) {
          this.#disabled = true
        }
      },
      () => {
        // Offline or refused: analytics are best effort.
      },
    )
  }
}
