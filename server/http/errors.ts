import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { z } from 'zod'
import { DocentError, type ErrorCode, formatIssues } from '../../shared/errors.ts'
import { clientIp } from './client-ip.ts'

/** The one place codes become HTTP statuses. A code not listed here (a domain error nobody mapped) is a 500. */
const statusOfCode: Record<string, ContentfulStatusCode> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
}

const codeOfStatus = Object.fromEntries(Object.entries(statusOfCode).map(([code, status]) => [status, code])) as Record<number, ErrorCode>

export function statusOf(code: string): ContentfulStatusCode {
  return statusOfCode[code] ?? 500
}

/**
 * An error the HTTP layer itself raises (auth, limits, body, routing), with the headers it needs (`Retry-After`,
 * `Allow`, `WWW-Authenticate`). Domain code throws `DocentError` with a code instead.
 */
export class ApiError extends DocentError<ErrorCode> {
  override name = 'ApiError'
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(codeOfStatus[status] ?? 'invalid_request', message)
  }
}

export interface ErrorLogger {
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
}

/**
 * The one place that turns anything thrown into `{"error": "...", "code": "..."}`. A refused key, session or webhook
 * signature (401, 403) is logged with who asked for what, so a leaked or guessed key shows in the log; never the key.
 */
export function errorHandler(log: ErrorLogger, { trustProxy = false }: { trustProxy?: boolean } = {}) {
  return (err: Error, c: Context): Response => {
    if (err instanceof DocentError) {
      const status = err instanceof ApiError ? err.status : statusOf(err.code)
      if (status === 401 || status === 403) {
        log.warn('request refused', { status, method: c.req.method, path: c.req.path, ip: clientIp(c, trustProxy), reason: err.message })
      }
      // A 503 says "try later" (docs still loading): a known state, not a crash, so it is answered, not logged.
      if (status < 500 || status === 503) {
        return c.json({ error: err.message, code: err.code }, status, err instanceof ApiError ? err.headers : headersOf(err))
      }
    }
    if (err instanceof z.ZodError) {
      return c.json({ error: formatIssues(err.issues), code: 'invalid_request' }, 400)
    }
    if (err instanceof HTTPException && err.status < 500) {
      return c.json({ error: err.message || 'bad request', code: codeOfStatus[err.status] ?? 'invalid_request' }, err.status)
    }
    const requestId = c.get('requestId') ?? 'unknown'
    log.error('unhandled error', { requestId, method: c.req.method, path: c.req.path, error: err?.stack ?? String(err) })
    return c.json({ error: `internal error (request id ${requestId})`, code: 'internal' }, 500)
  }
}

/** Headers a domain error asks for through its data: `retryAfterSeconds` → `Retry-After`. */
function headersOf(err: DocentError<string>): Record<string, string> {
  const retry = err.data.retryAfterSeconds
  return typeof retry === 'number' ? { 'retry-after': String(retry) } : {}
}
