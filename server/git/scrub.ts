/**
 * Removes secrets from text that may reach users, logs or job events: the given tokens, and credentials written into
 * URLs (`https://user:secret@host`).
 */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text.replace(/(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1')
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}
