import { CONSOLE_HEADER, ORGANIZATION_HEADER } from '../../shared/console-names.ts'
import { DocentError } from '../../shared/docent-error.ts'

/** An error answer of the API: the server's stable code and message, with the status (the widget's HttpError likewise). */
export class ApiError extends DocentError<string> {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly retryAfter: number | null = null,
  ) {
    super(code, message, { status, retryAfter })
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  body?: unknown
  signal?: AbortSignal
}

/**
 * Called when a request meets an ended session (401): resolves once the person has signed in again (the app shows
 * its sign-in dialog over the screen, so nothing typed is lost), then the request is sent once more.
 */
let reauthenticate: (() => Promise<void>) | null = null
export function onSessionEnded(handler: () => Promise<void>) {
  reauthenticate = handler
}

/**
 * The organization the console shows (ORGANIZATION_HEADER): when another tab signs in to another organization, this
 * tab's requests would act there, and the server refuses them instead (409).
 */
let shownOrganization: string | null = null

/** The organization on screen, which every request from now on names (null before sign-in). */
export function showOrganization(organization: string | null) {
  shownOrganization = organization
}

/**
 * Called when the server refuses a request (403, 409): maybe for a reason of its own, maybe because another tab signed
 * in as someone else, which the app finds out by asking who is signed in.
 */
let refused: (() => void) | null = null
export function onRefused(handler: () => void) {
  refused = handler
}

/** What a person reads when the request never reached Docent (the server is down, the network is gone). */
export const UNREACHABLE = 'Docent cannot be reached: the server may be down or restarting, or the network gone.'

async function send(path: string, options: RequestOptions, organization = shownOrganization): Promise<Response> {
  try {
    return await fetchOnce(path, options, organization)
  } catch (error) {
    // An abort is the screen's own doing (it moved on); anything else is the browser's "Failed to fetch".
    if ((error as Error).name === 'AbortError') throw error
    throw new ApiError(0, 'unreachable', UNREACHABLE, null)
  }
}

function fetchOnce(path: string, options: RequestOptions, organization: string | null): Promise<Response> {
  return fetch(path, {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    signal: options.signal,
    headers: {
      accept: 'application/json',
      // Every request carries it: the server requires it on sign-in, sign-out and changes made with the session cookie (CSRF).
      [CONSOLE_HEADER]: '1',
      // Encoded: an organization's name may be any text, a header value only Latin-1.
      ...(organization !== null ? { [ORGANIZATION_HEADER]: encodeURIComponent(organization) } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
}

async function errorOf(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { error?: string; code?: string }
  const retry = Number(response.headers.get('retry-after'))
  return new ApiError(
    response.status,
    body.code ?? 'unknown',
    body.error ?? `the server answered ${response.status}`,
    Number.isFinite(retry) && retry > 0 ? retry : null,
  )
}

/**
 * A JSON request of the admin API with the session cookie; an ended session is renewed by signing in, then retried.
 * The retry names the organization the request was made in: signed in to another one meanwhile, it is refused.
 */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const organization = shownOrganization
  let response = await send(path, options, organization)
  if (response.status === 401 && reauthenticate) {
    await reauthenticate()
    response = await send(path, options, organization)
  }
  if ((response.status === 403 || response.status === 409) && refused) refused()
  if (!response.ok) throw await errorOf(response)
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}

/** Sign-in itself: no retry loop, the caller shows the error. */
export async function apiNoRetry<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options)
  if (!response.ok) throw await errorOf(response)
  if (response.status === 204) return undefined as T
  return (await response.json()) as T
}
