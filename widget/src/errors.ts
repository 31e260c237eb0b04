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

/** Fetch for the chat transport: a refused request throws an HttpError carrying status, code and Retry-After. */
export async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init)
  if (response.ok) return response
  const text = await response.text().catch(() => '')
  let message = text
  let code: string | undefined
  try {
    const body = JSON.parse(text) as { error?: string; code?: string }
    message = body.error ?? text
    code = body.code
  } catch {
    // not JSON: keep the text
  }
  throw new HttpError(response.status, message.slice(0, 300), retryAfter(response.headers.get('retry-after')), code)
}

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
 * Whether asking again can help: not with a refused key (401/403: only the site's owner can fix it), and not with
 * a 429 before its wait is over (the panel offers Retry when it is).
 */
export function retryable(error: Error): boolean {
  return !(error instanceof HttpError && (error.status === 401 || error.status === 403 || error.status === 429))
}

/** The sentence a reader sees for a failed answer. */
export function readableError(error: Error, labels: Labels, language = 'en'): string {
  if (error instanceof HttpError) {
    if (error.status === 429) {
      const wait =
        error.retryAfterSeconds === null
          ? ''
          : ` ${fill(labels.errorRetryIn, {
              wait: formatWait(error.retryAfterSeconds, language),
            })}`
      return `${labels.errorRateLimit}${wait}`
    }
    if (error.status === 401 || error.status === 403) {
      return `${labels.errorAuth} (${error.status}: ${error.message}).`
    }
    return `${labels.errorServer} (${error.status}${error.message ? `: ${error.message}` : ''}).`
  }
  if (error instanceof TypeError) return labels.errorNetwork
  return `${labels.errorServer}${error.message ? `: ${error.message}` : '.'}`
}
