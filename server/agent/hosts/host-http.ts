import { DocentError } from '../../../shared/errors.ts'
import { scrubSecrets } from '../../git/scrub.ts'

type HostErrorCode = 'authentication_failed' | 'not_found' | 'conflict' | 'host_failed'

/**
 * A git host API call that failed; the message names the call and status, never the token. Callers branch on `code`:
 * `authentication_failed` (401/403), `not_found` (404), `conflict` (409, and 422: the host refused the change as it
 * stands, e.g. a pull request that already exists or cannot be reopened), `host_failed` (anything else, or no answer).
 */
export class HostApiError extends DocentError<HostErrorCode> {
  override name = 'HostApiError'
  constructor(message: string, status: number, where: string) {
    super(codeOf(status), message, { status, where })
  }
}

function codeOf(status: number): HostErrorCode {
  if (status === 401 || status === 403) return 'authentication_failed'
  if (status === 404) return 'not_found'
  if (status === 409 || status === 422) return 'conflict'
  return 'host_failed'
}

export interface HostCall {
  fetch: typeof fetch
  method: 'GET' | 'POST' | 'PATCH' | 'PUT'
  url: string
  headers: Record<string, string>
  body?: unknown
  signal?: AbortSignal
  /** Scrubbed from anything that ends up in an error. */
  secret: string
  /** e.g. "GitHub", for messages. */
  host: string
}

/** Sends one JSON request to a host API; returns the parsed body, or throws a HostApiError. */
export async function hostRequest<T>(call: HostCall): Promise<T> {
  const headers = { ...call.headers, ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }) }
  const where = `${call.host} ${call.method} ${new URL(call.url).pathname}`
  let response: Response
  try {
    response = await call.fetch(call.url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: call.signal,
    })
  } catch (error) {
    throw new HostApiError(
      scrubSecrets(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, [call.secret]),
      0,
      where,
    )
  }
  const text = await response.text()
  if (!response.ok) {
    const auth =
      response.status === 401 || response.status === 403
        ? ` (authentication failed: check that the ${call.host} token is set and may open pull requests here)`
        : ''
    throw new HostApiError(
      scrubSecrets(`${where} answered ${response.status}: ${summarize(text)}${auth}`, [call.secret]),
      response.status,
      where,
    )
  }
  try {
    return JSON.parse(text) as T
  } catch {
    throw new HostApiError(`${where} answered with something that is not JSON`, 0, where)
  }
}

/** The API's own error message when it sent one (GitHub `message`, GitLab `message`/`error`), else the start of the body. */
function summarize(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; error?: unknown; errors?: unknown }
    const parts = [body.message, body.error, body.errors]
      .filter((part) => part !== undefined)
      .map((part) => (typeof part === 'string' ? part : JSON.stringify(part)))
    if (parts.length) return parts.join(' ').slice(0, 300)
  } catch {
    // not JSON
  }
  return text.slice(0, 200)
}
