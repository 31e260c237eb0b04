import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
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
    onError: () => {
      throw new ApiError(413, `request body must be at most ${maxBytes} bytes`)
    },
  })
  if (timeoutSeconds === undefined) return limit
  return async (c, next) => {
    const body = c.req.raw.body
    if (!body) return limit(c, next)
    let timer: ReturnType<typeof setTimeout> | undefined
    const guarded = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          timer = setTimeout(
            () =>
              controller.error(new ApiError(408, `the request body did not arrive within ${timeoutSeconds} s`, { connection: 'close' })),
            timeoutSeconds * 1000,
          )
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
