/**
 * Credentials written into a URL: what stands between `://` and `@` before the host. Whatever the scheme is written as
 * (`1http://`, `git+ssh://`), they go. The pattern starts at `://`, never in a scheme's letters, so recheck's automaton
 * proves it linear; the one it replaces looked behind for the scheme's start, which left recheck only its fuzzer, and
 * that called it polynomial on loaded machines.
 */
const URL_CREDENTIALS = /:\/\/[^/\s@]+@/g

/**
 * Removes secrets from text that may reach users, logs or job events: the given tokens, and credentials written into
 * URLs (`https://user:secret@host`).
 */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text.replace(URL_CREDENTIALS, '://')
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
