import type { MiddlewareHandler } from 'hono'
import { bodyLimit as honoBodyLimit } from 'hono/body-limit'
import { ApiError } from './errors.ts'

export interface BodyLimitOptions {
  /** Largest accepted body in bytes (the contract says 1 MiB). */
  maxBytes: number
}

/**
 * Refuses bodies over the limit with 413, whether or not Content-Length is sent:
 * Hono's middleware counts streamed bytes too.
 */
export const bodyLimit = ({ maxBytes }: BodyLimitOptions): MiddlewareHandler =>
  honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError(413, `request body must be at most ${maxBytes} bytes`)
    },
  })
