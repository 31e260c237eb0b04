import { scrubSecrets } from '../../git/scrub.ts'
import { boundedStream } from '../../http/outbound.ts'
import type { Logger } from '../../log.ts'
import { type AutomationEvent, slackMessage, webhookBody } from './payloads.ts'

/** Where a project's automation notices go. The URL is a secret (a Slack webhook URL is its own credential). */
export interface NotificationTarget {
  kind: 'slack' | 'webhook'
  url: string
  /** For a generic webhook: signs the body, as `X-Docent-Signature-256: sha256=<HMAC-SHA256 hex>` (GitHub's scheme). */
  secret?: string
}

export interface SendOptions {
  fetch: typeof fetch
  /** How long to wait for the receiver, in milliseconds. */
  timeoutMs?: number
  log?: Logger
}

export interface SendResult {
  ok: boolean
  /** The receiver's HTTP status, when it answered. */
  status?: number
  /** Why it failed, with the URL and secret scrubbed. */
  error?: string
}

const DEFAULT_TIMEOUT_MS = 10_000

/** The most of a receiver's answer that is read: enough for the error it gives (Slack answers `ok` or an error word). */
export const MAX_ANSWER_BYTES = 64 * 1024

/**
 * Posts an event to a Slack incoming webhook or a generic JSON webhook. Never throws: a notice that cannot be
 * delivered must not fail the run it reports on. The result and the log name the target by its host only; the URL's
 * path, query and the signing secret never reach a log or an error message.
 */
export async function sendNotification(target: NotificationTarget, event: AutomationEvent, options: SendOptions): Promise<SendResult> {
  const where = safeTarget(target.url)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // One deadline for the whole exchange: the headers and the answer's body.
  const signal = AbortSignal.timeout(timeoutMs)
  const scrub = (text: string) => scrubSecrets(text, [target.url, pathOf(target.url), target.secret])
  try {
    const body = JSON.stringify(target.kind === 'slack' ? slackMessage(event) : webhookBody(event))
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Docent automations' }
    if (target.kind === 'webhook') {
      headers['x-docent-event'] = `automation.${event.type}`
      if (target.secret) headers['x-docent-signature-256'] = `sha256=${await hmacHex(target.secret, body)}`
    }
    const response = await options.fetch(target.url, {
      method: 'POST',
      headers,
      body,
      signal,
      redirect: 'error',
    })
    const answer = (await readAnswer(response, signal)).slice(0, 200)
    if (response.ok) {
      options.log?.info('automation notice sent', { target: where, event: event.type, status: response.status })
      return { ok: true, status: response.status }
    }
    const error = scrub(`${where} answered ${response.status}${answer ? `: ${answer}` : ''}`)
    options.log?.warn('automation notice refused', { target: where, event: event.type, status: response.status, error })
    return { ok: false, status: response.status, error }
  } catch (caught) {
    const reason =
      caught instanceof Error && caught.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : caught instanceof Error
          ? caught.message
          : String(caught)
    const error = scrub(`${where}: ${reason}`)
    options.log?.warn('automation notice failed', { target: where, event: event.type, error })
    return { ok: false, error }
  }
}

/**
 * The start of the receiver's answer, up to MAX_ANSWER_BYTES; the rest is cancelled, which closes the connection. The
 * read ends at `signal`'s deadline too, whatever the fetch does with the signal once the headers are in: an answer
 * that streams without end or stalls after its headers then throws the signal's reason.
 */
async function readAnswer(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return ''
  const reader = boundedStream(response.body, MAX_ANSWER_BYTES, () => new Error('enough of the answer read')).getReader()
  // A cancelled reader ends its pending read as `done`; the deadline is checked after the loop.
  const stop = () => void reader.cancel(signal.reason).catch(() => undefined)
  if (signal.aborted) stop()
  else signal.addEventListener('abort', stop, { once: true })
  const decoder = new TextDecoder()
  let text = ''
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // Past MAX_ANSWER_BYTES (boundedStream has cancelled the rest), or the receiver dropped the connection midway:
    // what came before is kept, and the status decides.
  } finally {
    signal.removeEventListener('abort', stop)
  }
  signal.throwIfAborted()
  return text + decoder.decode()
}

/** `https://hooks.slack.com/services/T0/B0/secret` → `hooks.slack.com`. */
function safeTarget(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return 'an invalid URL'
  }
}

function pathOf(url: string): string | undefined {
  try {
    const parsed = new URL(url)
    const rest = parsed.pathname + parsed.search
    return rest.length > 1 ? rest : undefined
  } catch {
    return undefined
  }
}

async function hmacHex(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)))
  return [...signature].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
