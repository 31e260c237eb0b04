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
 * A file that is not UTF-8 text (an image, a PDF): the agent's tools read and write text, and text decoded from such
 * bytes and written back would replace every invalid byte with U+FFFD, breaking the file. `data.bytes` is its size.
 */
export class NotTextError extends DocentError<'not_text'> {
  override name = 'NotTextError'
  declare readonly data: { path: string; bytes: number }
  constructor(path: string, bytes: number) {
    super(
      'not_text',
      `"${path}" is not UTF-8 text (a binary file such as an image, ${bytes} bytes): the file tools read and write text only, so they cannot read, edit or replace it; deleting it is possible`,
      { path, bytes },
    )
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
  if (gitCode === 'PushRejectedError') {
    return pushRejected(action, String((error as { data?: { reason?: unknown } }).data?.reason ?? 'unknown'))
  }
  const code = gitCode === 'NotFoundError' ? 'not_found' : 'git_failed'
  return new GitOperationError(code, scrubSecrets(`${action}: ${detail}`, secrets), { gitCode })
}

/**
 * A push the remote refused because its branch moved on, said in words: isomorphic-git's own message ends in `Use
 * "force: true" to override.`, advice for its callers that no user of Docent can take (Docent never force-pushes).
 */
export function pushRejected(action: string, reason: string): GitOperationError {
  const detail =
    reason === 'not-fast-forward'
      ? 'the branch on the remote has commits this run did not start from (something pushed to it meanwhile), and Docent does not overwrite them; send a follow-up, which starts from the branch as it is now'
      : `the remote refused it (${reason})`
  return new GitOperationError('push_rejected', `${action}: ${detail}`, { gitCode: 'PushRejectedError', reason })
}
