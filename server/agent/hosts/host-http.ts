import { z } from 'zod'
import { DocentError } from '../../../shared/errors.ts'
import { scrubSecrets } from '../../git/scrub.ts'
import { boundedStream, isRedirect } from '../../http/outbound.ts'

/** A host call that has not answered in full by then has failed: a pull-request poll waits on it (see gaps). */
export const HOST_CALL_TIMEOUT_MS = 30_000
/** The most a host API answer may hold: a page of pull requests is tens of KB; an endless answer is refused. */
export const MAX_HOST_RESPONSE_BYTES = 8 * 1024 * 1024

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

export interface HostCall<S extends z.ZodType> {
  fetch: typeof fetch
  /** What the answer must look like: a body of another shape is a host_failed error, never a crash further on. */
  schema: S
  method: 'GET' | 'POST' | 'PATCH' | 'PUT'
  url: string
  headers: Record<string, string>
  body?: unknown
  signal?: AbortSignal
  /** Scrubbed from anything that ends up in an error. */
  secret: string
  /** e.g. "GitHub", for messages. */
  host: string
  /** Less than HOST_CALL_TIMEOUT_MS, where a caller wants it. */
  timeoutMs?: number
}

/**
 * Sends one JSON request to a host API; returns the parsed, checked body, or throws a HostApiError. Redirects are not
 * followed: the token would travel with them (fetch drops `Authorization` on another origin, but not `PRIVATE-TOKEN`).
 * The call ends after HOST_CALL_TIMEOUT_MS, and its answer may hold MAX_HOST_RESPONSE_BYTES.
 */
export async function hostRequest<S extends z.ZodType>(call: HostCall<S>): Promise<z.infer<S>> {
  const headers = { ...call.headers, ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }) }
  const where = `${call.host} ${call.method} ${new URL(call.url).pathname}`
  const timeoutMs = Math.min(call.timeoutMs ?? HOST_CALL_TIMEOUT_MS, HOST_CALL_TIMEOUT_MS)
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout
  const failed = (error: unknown) =>
    new HostApiError(
      timeout.aborted
        ? `${where} did not answer within ${timeoutMs / 1000} s`
        : scrubSecrets(`${where} failed: ${error instanceof Error ? error.message : String(error)}`, [call.secret]),
      0,
      where,
    )
  let response: Response
  let text: string
  try {
    response = await call.fetch(call.url, {
      method: call.method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal,
      redirect: 'manual',
    })
    if (isRedirect(response)) {
      void response.body?.cancel().catch(() => undefined)
      throw new HostApiError(
        `${where} answered with a redirect (${response.status || 'opaque'}); Docent does not follow a host's redirects, as the token would go with them: set apiBase to the address the API answers at`,
        response.status,
        where,
      )
    }
    const tooLarge = () => new HostApiError(`${where} answered with more than ${MAX_HOST_RESPONSE_BYTES / (1024 * 1024)} MiB`, 0, where)
    text = response.body ? await new Response(boundedStream(response.body, MAX_HOST_RESPONSE_BYTES, tooLarge)).text() : ''
  } catch (error) {
    throw error instanceof HostApiError ? error : failed(error)
  }
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
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new HostApiError(`${where} answered with something that is not JSON`, 0, where)
  }
  const checked = call.schema.safeParse(body)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    const at = issue && issue.path.length > 0 ? ` (${issue.path.join('.')}: ${issue.message})` : ''
    throw new HostApiError(`${where} answered with a body of another shape than the API's${at}`, 0, where)
  }
  return checked.data
}

/** A pull request's address on its host, as the job's `prLink` and the console's links show it: a web page, never a script. */
export const webAddress = z.string().refine((url) => {
  const protocol = URL.parse(url)?.protocol
  return protocol === 'https:' || protocol === 'http:'
}, 'not an http(s) address')

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
