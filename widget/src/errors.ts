import type { Labels } from './labels.ts'

/** A non-2xx answer from the assistant, with what a reader needs to know (the wait of a 429). */
export class HttpError extends Error {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null,
  ) {
    super(message)
  }
}

/** Fetch for the chat transport: a refused request throws an HttpError carrying status and Retry-After. */
export async function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init)
  if (response.ok) return response
  const text = await response.text().catch(() => '')
  let message = text
  try {
    message = (JSON.parse(text) as { error?: string }).error ?? text
  } catch {
    // not JSON: keep the text
  }
  throw new HttpError(response.status, message.slice(0, 300), retryAfter(response.headers.get('retry-after')))
}

function retryAfter(header: string | null): number | null {
  if (!header) return null
  const seconds = Number(header)
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds))
  const date = Date.parse(header)
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`
  const hours = Math.ceil(minutes / 60)
  return `${hours} hours`
}

/** The sentence a reader sees for a failed answer. */
export function readableError(error: Error, labels: Labels): string {
  if (error instanceof HttpError) {
    if (error.status === 429) {
      const wait = error.retryAfterSeconds === null ? '' : ` ${labels.errorRetryIn.replace('{wait}', formatWait(error.retryAfterSeconds))}`
      return `${labels.errorRateLimit}${wait}`
    }
    if (error.status === 401 || error.status === 403) return `${labels.errorAuth} (${error.status}: ${error.message}).`
    return `${labels.errorServer} (${error.status}${error.message ? `: ${error.message}` : ''}).`
  }
  if (error instanceof TypeError) return labels.errorNetwork
  return `${labels.errorServer}${error.message ? `: ${error.message}` : '.'}`
}
