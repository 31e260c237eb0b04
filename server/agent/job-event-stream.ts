import type { AgentJob } from '../../shared/agent.ts'
import type { Store } from '../store/types.ts'
import { jobView } from './job-view.ts'

export interface JobEventStreamOptions {
  store: Store
  projectId: string
  jobId: string
  /** Events the client already has (`Last-Event-ID` on a reconnect): the stream starts after them. */
  after: number
  /** How often the store is asked for new events. The store is the channel, so any instance serves any watcher. */
  pollMs?: number
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number
  /** Aborts with the request (the client went away). */
  signal?: AbortSignal
}

/** `Accept: text/event-stream` asked for first (before or instead of JSON). */
export function wantsEventStream(accept: string | undefined): boolean {
  if (!accept) return false
  const ranked = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.trim().toLowerCase().split(';')
      const q = Number(params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined) ?? 1)
      return { type: type.trim(), q: Number.isNaN(q) ? 0 : q, index }
    })
    .filter((entry) => entry.q > 0 && (entry.type === 'text/event-stream' || entry.type === 'application/json' || entry.type === '*/*'))
    .sort((a, b) => b.q - a.q || a.index - b.index)
  return ranked[0]?.type === 'text/event-stream'
}

const encoder = new TextEncoder()
const frame = (event: string, data: unknown, id?: number) =>
  encoder.encode(`event: ${event}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`)

/**
 * A job's events as server-sent events, as they happen: `agent` (an AgentEvent, `id` its position, so a reconnect
 * resumes after the last one), `job` (the AgentJob whenever its status or PR changes) and `end` once the job is no
 * longer active. The store is polled, so events written by another instance's worker (PostgreSQL, Deno KV) arrive
 * the same way as this instance's. Pull-based: nothing is read while the client is not reading.
 */
export function jobEventStream(options: JobEventStreamOptions): ReadableStream<Uint8Array> {
  const { store, projectId, jobId, pollMs = 400, heartbeatMs = 15_000, signal } = options
  let seen = options.after
  let lastJob = ''
  let lastWrite = Date.now()
  let closed = false
  let wake: (() => void) | null = null
  const stop = () => {
    closed = true
    wake?.()
  }
  signal?.addEventListener('abort', stop, { once: true })
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, pollMs)
      wake = () => {
        clearTimeout(timer)
        resolve()
      }
    })

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(`retry: 2000\n\n`))
    },
    async pull(controller) {
      while (!closed) {
        const chunks: Uint8Array[] = []
        for (const event of await store.listJobEvents(jobId, { after: seen })) chunks.push(frame('agent', event, ++seen))
        const job = await store.getJob(projectId, jobId)
        const view: AgentJob | null = job ? jobView(job) : null
        const text = JSON.stringify(view)
        if (view && text !== lastJob) {
          lastJob = text
          chunks.push(frame('job', view))
        }
        if (view?.status !== 'active') {
          // Events written between the two reads above come before the end.
          for (const event of await store.listJobEvents(jobId, { after: seen })) chunks.push(frame('agent', event, ++seen))
          chunks.push(frame('end', { status: view?.status ?? null }))
        } else if (chunks.length === 0 && Date.now() - lastWrite >= heartbeatMs) {
          chunks.push(encoder.encode(': keep-alive\n\n'))
        }
        if (chunks.length > 0) {
          for (const chunk of chunks) controller.enqueue(chunk)
          lastWrite = Date.now()
          if (view?.status !== 'active') {
            stop()
            controller.close()
          }
          return
        }
        await pause()
      }
    },
    cancel() {
      stop()
    },
  })
}
