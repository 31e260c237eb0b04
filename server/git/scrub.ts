import { trimEnd } from '../../shared/trim.ts'

/**
 * Credentials written into a URL: what stands between `://` and `@` before the host. Whatever the scheme is written as
 * (`1http://`, `git+ssh://`), they go. The pattern starts at `://`, never in a scheme's letters, so recheck's automaton
 * proves it linear; the one it replaces looked behind for the scheme's start, which left recheck only its fuzzer, and
 * that called it polynomial on loaded machines.
 */
const URL_CREDENTIALS = /:\/\/[^/\s@]+@/g

/**
 * Key-shaped strings removed even when no configuration names them: OpenAI-style keys, Docent's own admin keys, bearer
 * tokens (the word `Bearer` stays, so a reader still sees what was sent).
 */
const KEY_SHAPES = [/\bsk-[A-Za-z0-9_-]{12,}/g, /\bsvc_[A-Za-z0-9_]{12,}/g, /\b(Bearer\s+)[^\s"'\\]{8,}/gi]

/** The user names a token is sent with in HTTP basic auth (clone.ts, sources/git.ts; GitLab's `oauth2`). */
const BASIC_USERS = ['x-access-token', 'oauth2']

/**
 * Removes secrets from text that may reach users, logs, job errors or job events (the one scrubber of all of them): the
 * given tokens, as written and as a server that echoes a request may write them back (base64, base64url, and the
 * basic-auth credentials Docent sends), credentials written into URLs (`https://user:secret@host`), and anything shaped
 * like an API key.
 */
export function scrubSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text.replace(URL_CREDENTIALS, '://')
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    for (const form of formsOf(secret)) out = out.split(form).join('***')
  }
  return KEY_SHAPES.reduce(
    (scrubbed, shape) => scrubbed.replace(shape, (_match, prefix?: string) => (typeof prefix === 'string' ? `${prefix}***` : '***')),
    out,
  )
}

function formsOf(secret: string): string[] {
  const forms = [secret]
  for (const plain of [secret, ...BASIC_USERS.map((user) => `${user}:${secret}`)]) {
    let base64: string
    try {
      base64 = btoa(plain)
    } catch {
      continue // not Latin-1: never sent as a header either
    }
    const unpadded = trimEnd(base64, '=')
    forms.push(base64, unpadded, unpadded.replaceAll('+', '-').replaceAll('/', '_'))
  }
  // Longest first: a padded form is cut whole, not left with its `=`.
  return [...new Set(forms)].sort((a, b) => b.length - a.length)
}

/** scrubSecrets over every string of a JSON-like value (event data, log fields); anything else is kept as it is. */
export function scrubValue(value: unknown, secrets: ReadonlyArray<string | undefined>): unknown {
  if (typeof value === 'string') return scrubSecrets(value, secrets)
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets))
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubValue(item, secrets)]))
  }
  return value
}
