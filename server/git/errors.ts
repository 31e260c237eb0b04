import { DocentError } from '../../shared/errors.ts'
import { scrubSecrets } from './scrub.ts'

/**
 * A git failure whose message is safe to show (no tokens, no credentials in URLs). Callers branch on `code`:
 * `authentication_failed` (the remote refused the credentials), `not_found` (no such repository or branch),
 * `push_rejected` (not a fast-forward), `git_failed` (anything else). `data.gitCode` keeps isomorphic-git's own code.
 */
export class GitOperationError extends DocentError<'authentication_failed' | 'not_found' | 'push_rejected' | 'git_failed'> {
  override name = 'GitOperationError'
}

/** A path the workspace refuses: outside the repository, git metadata, or not a name git would check out safely. */
export class WorkspacePathError extends DocentError<'path_refused'> {
  override name = 'WorkspacePathError'
  constructor(path: string, reason: string) {
    super('path_refused', `path "${path}" refused: ${reason}`, { path, reason })
  }
}

/**
 * Wraps any error from a git operation on `repository` into a GitOperationError with a scrubbed message. A 401 or
 * 403 from the remote is an authentication failure that names the repository, whatever the operation was.
 */
export function gitError(action: string, error: unknown, secrets: Array<string | undefined>, repository?: string): GitOperationError {
  if (error instanceof GitOperationError) return error
  const gitCode = (error as { code?: string } | null)?.code ?? 'GitError'
  const status = (error as { data?: { statusCode?: unknown } } | null)?.data?.statusCode
  const detail = error instanceof Error ? error.message : String(error)
  if (gitCode === 'HttpError' && (status === 401 || status === 403) && repository) {
    const where = scrubSecrets(repository, secrets)
    return new GitOperationError(
      'authentication_failed',
      `authentication failed for ${where}: the remote answered ${status} (${action}); check that the token is set and may ${
        action.startsWith('cannot push') ? 'push to' : 'read'
      } this repository`,
      { gitCode, status, repository: where },
    )
  }
  const code = gitCode === 'NotFoundError' ? 'not_found' : gitCode === 'PushRejectedError' ? 'push_rejected' : 'git_failed'
  return new GitOperationError(code, scrubSecrets(`${action}: ${detail}`, secrets), { gitCode })
}
