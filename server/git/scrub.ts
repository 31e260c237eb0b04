import { trimEnd } from '../../shared/trim.ts'

/**
 * Credentials written into a URL: what stands between `://` and `@` before the host. Whatever the scheme is written as
 * (`1http://`, `git+ssh://`), they go. The pattern starts at `://`, never in a scheme's letters, so recheck's automaton
 * proves it linear; the one it replaces looked behind for the scheme's start, which left recheck only its fuzzer, and
 * that called it polynomial on loaded machines.
 */
const URL_CREDENTIALS = /:\/\/[^/\s@]+@/g

/** The user names a token is sent with in HTTP basic auth (clone.ts, sources/git.ts; GitLab's `oauth2`). */
const BASIC_USERS = ['x-access-token', 'oauth2']

/**
 * Removes secrets from text that may reach users, logs or job events: the given tokens, as written and as a server
 * that echoes a request may write them back (base64, base64url, and the basic-auth credentials Docent sends), and
 * credentials written into URLs (`https://user:secret@host`).
 */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text.replace(URL_CREDENTIALS, '://')
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    for (const form of formsOf(secret)) out = out.split(form).join('***')
  }
  return out
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
