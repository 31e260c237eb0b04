import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { refusalGrant } from './cors.ts'
import { ApiError } from './errors.ts'

export interface BodyLimitOptions {
  /** Largest accepted body in bytes (the contract says 1 MiB). */
  maxBytes: number
  /** The whole body must arrive within this many seconds of the request reaching the app (slow clients). */
  timeoutSeconds?: number
}

/**
 * Refuses bodies over the limit with 413, whether or not Content-Length is sent: Hono's middleware counts streamed
 * bytes too. With `timeoutSeconds`, a body still arriving after that is refused with 408: a client sending a byte now and
 * then cannot hold a request open (Node also enforces this itself; on Deno and Bun this is the only guard).
 */
export const bodyLimit = ({ maxBytes, timeoutSeconds }: BodyLimitOptions): MiddlewareHandler => {
  const limit = honoBodyLimit({
    maxSize: maxBytes,
    // Before the route's CORS when Content-Length says it at once: the refusal carries its own grant.
    onError: (c) => {
      throw new ApiError(413, `request body must be at most ${maxBytes} bytes`, refusalGrant(c))
    },
  })
  if (timeoutSeconds === undefined) return limit
  return async (c, next) => {
    const body = c.req.raw.body
    if (!body) return limit(c, next)
    const deadline = Date.now() + timeoutSeconds * 1000
    if (!c.req.raw.headers.has('transfer-encoding')) {
      // The usual body, with a Content-Length: the handler reads it (readJson), racing this deadline. No wrapping: a
      // stream in the way of every body was a tenth of a search request's time.
      deadlines.set(c.req.raw, { at: deadline, seconds: timeoutSeconds })
      return limit(c, next)
    }
    // A chunked body is read whole by the size check itself: guard that read.
    let timer: ReturnType<typeof setTimeout> | undefined
    const guarded = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          timer = setTimeout(() => controller.error(bodyTimeout(timeoutSeconds)), timeoutSeconds * 1000)
        },
        flush() {
          clearTimeout(timer)
        },
      }),
    )
    c.req.raw = new Request(c.req.raw, { body: guarded, duplex: 'half' } as RequestInit)
    try {
      return await limit(c, next)
    } finally {
      clearTimeout(timer)
    }
  }
}

const deadlines = new WeakMap<Request, { at: number; seconds: number }>()

const bodyTimeout = (seconds: number) => new ApiError(408, `the request body did not arrive within ${seconds} s`, { connection: 'close' })

/** Reads the request's body (`read`), refused with 408 when it has not all arrived by the deadline `bodyLimit` set. */
export async function readBodyText<T = string>(request: Request, read: () => Promise<T>): Promise<T> {
  const deadline = deadlines.get(request)
  if (!deadline) return read()
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(bodyTimeout(deadline.seconds)), Math.max(0, deadline.at - Date.now()))
  })
  try {
    return await Promise.race([read(), late])
  } finally {
    clearTimeout(timer)
  }
}
