import { DocentError } from '../../shared/docent-error.ts'
import { fill, type Labels } from './labels.ts'

/** A non-2xx answer from the assistant, with what a reader needs to know (the wait of a 429) and the server's code. */
export class HttpError extends DocentError<string> {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null,
    code = 'internal',
  ) {
    super(code, message, { status, retryAfterSeconds })
  }
}

/**
 * What the widget itself concluded, by code: `not_set_up` (the assistant's address refused this page's origin, or is
 * not a Docent server: only the site's owner can fix it; `hint` says what to check), `question_too_long` (refused before
 * sending; `max` is the limit), `unexpected_response` (an answer Docent would not send: a proxy, a broken stream) and
 * `cut_off` (the answer had begun when the stream failed; its message keeps why).
 */
export class WidgetError extends DocentError<'not_set_up' | 'question_too_long' | 'unexpected_response' | 'cut_off'> {
  override name = 'WidgetError'
}

/** How long the reachability check after a failed request may take before the failure counts as the network's. */
const PROBE_TIMEOUT_MS = 5000

/** Fetch for the chat transport and feedback: a refused request throws an HttpError carrying status, code and Retry-After. */
export async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init)
  if (response.ok) return response
  const text = await response.text().catch(() => '')
  let body: { error?: unknown; code?: unknown } | null = null
  try {
    body = JSON.parse(text) as { error?: unknown; code?: unknown }
  } catch {
    // not JSON: not Docent's error (see below)
  }
  const retryAfterSeconds = retryAfter(response.headers.get('retry-after'))
  if (typeof body?.error === 'string') {
    throw new HttpError(response.status, body.error.slice(0, 300), retryAfterSeconds, typeof body.code === 'string' ? body.code : undefined)
  }
  const type = response.headers.get('content-type') ?? 'no content type'
  // Every error of Docent's is JSON: a 404 or 405 without it comes from another server at that address.
  if (response.status === 404 || response.status === 405) {
    throw new WidgetError('not_set_up', `${response.url} answered ${response.status} (${type}), not as the Docent API`, {
      hint: API_BASE_HINT,
    })
  }
  throw new HttpError(response.status, `${type} response: ${text.slice(0, 200)}`, retryAfterSeconds)
}

export const API_BASE_HINT = 'data-api-base must be the address of the Docent server (unset, it is the page’s own origin)'

/**
 * Whether a request to the Docent server at `apiBase` that failed as a network error (a bare TypeError) was in fact its
 * refusal of this page's origin: the browser reports both alike. The server answers a request that needs no grant of
 * this origin (its widget file, which any origin may read): then it is up, and it refused the origin.
 */
export async function originRefused(apiBase: string): Promise<boolean> {
  const page = globalThis.location
  if (!page || serverOrigin(apiBase) === page.origin) return false
  try {
    const response = await fetch(`${apiBase}/widget/docent.js`, {
      method: 'HEAD',
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    })
    return response.ok
  } catch {
    return false
  }
}

/**
 * Origins this page's Content-Security-Policy refused a request to (`connect-src`): the browser fails such a request
 * as it fails one to a server that is down, and reports the refusal only as this event.
 */
const refusedByPolicy = new Set<string>()
globalThis.document?.addEventListener('securitypolicyviolation', (event) => {
  if (event.effectiveDirective !== 'connect-src') return
  try {
    refusedByPolicy.add(new URL(event.blockedURI).origin)
  } catch {
    // "inline", "eval" or an empty URI: not a request
  }
})

/**
 * Whether this page's Content-Security-Policy refused requests to the Docent server at `apiBase` (the event comes after
 * the failed request: this waits a moment for it).
 */
export async function policyRefused(apiBase: string): Promise<boolean> {
  if (!globalThis.location) return false
  await new Promise((resolve) => setTimeout(resolve, 50))
  return refusedByPolicy.has(serverOrigin(apiBase))
}

/** The origin of the Docent server at `apiBase` (unset: the page's own). */
export const serverOrigin = (apiBase: string) => new URL(apiBase || location.href, location.href).origin

function retryAfter(header: string | null): number | null {
  if (!header) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

/** "in 30 seconds", "dans 5 minutes", "3 時間後": the wait in the reader's language. */
export function formatWait(seconds: number, language = 'en'): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'always' })
  if (seconds < 60) return format.format(seconds, 'second')
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 120) return format.format(minutes, 'minute')
  return format.format(Math.ceil(minutes / 60), 'hour')
}

/**
 * Whether asking again can help: not with a refused key (401/403) or an assistant that is not set up (only the site's
 * owner can fix those), not with a question the server refuses as it is (400, 413), and not with a 429 before its wait
 * is over (the panel offers Retry when it is).
 */
export function retryable(error: Error): boolean {
  if (error instanceof WidgetError) return error.code === 'unexpected_response' || error.code === 'cut_off'
  if (!(error instanceof HttpError)) return true
  return error.status >= 500 || error.status === 408
}

/** The sentence a reader sees for a failed answer: never the server's or the browser's text (the console gets that). */
export function readableError(error: Error, labels: Labels, language = 'en'): string {
  if (error instanceof WidgetError) {
    if (error.code === 'not_set_up') return labels.errorNotSetUp
    if (error.code === 'question_too_long') return fill(labels.tooLong, { max: Number(error.data.max).toLocaleString(language) })
    if (error.code === 'cut_off') return labels.cutOff
  }
  if (error instanceof HttpError) {
    if (error.status === 429) {
      const wait =
        error.retryAfterSeconds === null ? '' : ` ${fill(labels.errorRetryIn, { wait: formatWait(error.retryAfterSeconds, language) })}`
      return `${labels.errorRateLimit}${wait}`
    }
    if (error.status === 401 || error.status === 403) return `${labels.errorAuth} (${error.status}).`
    return `${labels.errorServer} (${error.status}).`
  }
  if (error instanceof TypeError) return labels.errorNetwork
  return `${labels.errorServer}.`
}

/** The details of a failure for the site's developers, in the console (readers get `readableError`'s sentence). */
export function logError(error: Error) {
  const refusedKey = error instanceof HttpError && (error.status === 401 || error.status === 403)
  const given = error instanceof DocentError && typeof error.data.hint === 'string' ? error.data.hint : null
  const hint = given ?? (refusedKey ? 'data-api-key must be an assistant key (svc_dsc_…) of the project data-domain names' : null)
  const status = error instanceof HttpError ? ` (${error.status}${error.code === 'internal' ? '' : ` ${error.code}`})` : ''
  // A validation error of a garbled stream runs to tens of kilobytes: its start names the problem.
  console.warn(`Docent: the assistant's answer failed${status}: ${error.message.slice(0, 1000)}${hint ? `. Check: ${hint}` : ''}`)
}
