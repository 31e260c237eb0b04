import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { formatIssues } from '../../shared/errors.ts'

/** A stable machine-readable code beside each status; callers branch on `code`, people read `message`. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'

const codeOfStatus: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  500: 'internal',
}

export class ApiError extends Error {
  readonly code: ErrorCode
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
    this.name = 'ApiError'
    this.code = codeOfStatus[status] ?? 'bad_request'
  }
}

export interface ErrorLogger {
  error(message: string, fields?: Record<string, unknown>): void
}

/** The one place that turns anything thrown into `{"error": "..."}`. */
export function errorHandler(log: ErrorLogger) {
  return (err: Error, c: Context): Response => {
    if (err instanceof ApiError) {
      return c.json({ error: err.message }, err.status, err.headers)
    }
    if (err instanceof z.ZodError) {
      return c.json({ error: formatIssues(err.issues) }, 400)
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json({ error: err.message || 'bad request' }, err.status)
    }
    const requestId = c.get('requestId') ?? 'unknown'
    log.error('unhandled error', { requestId, error: err?.stack ?? String(err) })
    return c.json({ error: `internal error (request id ${requestId})` }, 500)
  }
}
