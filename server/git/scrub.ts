/**
 * Removes secrets from text that may reach users, logs or job events: the given tokens, and credentials written into
 * URLs (`https://user:secret@host`).
 */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1')
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***')
  }
  return out
}

/** A git failure whose message is safe to show: no tokens, no credentials in URLs. */
export class GitOperationError extends Error {
  override name = 'GitOperationError'
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message)
  }
}

/** Wraps any error from a git operation into a GitOperationError with a scrubbed message. */
export function gitError(action: string, error: unknown, secrets: Array<string | undefined>): GitOperationError {
  if (error instanceof GitOperationError) return error
  const code = (error as { code?: string } | null)?.code ?? 'GitError'
  const detail = error instanceof Error ? error.message : String(error)
  return new GitOperationError(scrubSecrets(`${action}: ${detail}`, secrets), code)
}
