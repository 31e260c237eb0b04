import git from 'isomorphic-git'
import type { OpenWorkspaceOptions, Workspace } from './types.ts'
import { fetchHttpClient } from './http-client.ts'
import { type GitFs, ObjectWorkspace } from './object-workspace.ts'
import { gitError, GitOperationError } from './errors.ts'

export interface HttpCloneOptions {
  fs: () => GitFs
  fetch: typeof fetch
  now: () => Date
  /** HTTP user name sent with the token (GitHub accepts any; `x-access-token` also suits app tokens, GitLab `oauth2`). */
  username?: string
}

const DIR = '/repo'
const GITDIR = '/repo/.git'

/**
 * Shallow, single-branch clone of `preferBranch` (when it exists) or `ref` into a fresh in-memory fs, without checking
 * out any file; the workspace reads blobs from the object store on demand.
 */
export async function openHttpWorkspace(options: OpenWorkspaceOptions, deps: HttpCloneOptions): Promise<Workspace> {
  const secrets = [options.token]
  const onAuth = options.token ? () => ({ username: deps.username ?? 'x-access-token', password: options.token }) : undefined
  const http = fetchHttpClient(deps.fetch, options.signal)
  const candidates = options.preferBranch && options.preferBranch !== options.ref ? [options.preferBranch, options.ref] : [options.ref]
  for (const [i, ref] of candidates.entries()) {
    options.signal?.throwIfAborted()
    const fs = deps.fs()
    try {
      await git.clone({
        fs,
        http,
        dir: DIR,
        gitdir: GITDIR,
        url: options.repository,
        ref,
        singleBranch: true,
        depth: 1,
        noCheckout: true,
        noTags: true,
        onAuth,
      })
    } catch (error) {
      // The job's branch does not exist before its first push: fall back to the base ref.
      if (i < candidates.length - 1 && isMissingRef(error)) continue
      throw gitError(`cannot clone ${ref}`, error, secrets, options.repository)
    }
    // Without this symbolic ref, push cannot tell what the remote already has and re-sends the whole tree.
    await git.writeRef({
      fs,
      gitdir: GITDIR,
      ref: 'refs/remotes/origin/HEAD',
      value: `refs/remotes/origin/${ref}`,
      symbolic: true,
      force: true,
    })
    const localRef = `refs/heads/${ref}`
    const head = await git.resolveRef({ fs, gitdir: GITDIR, ref: localRef })
    return new ObjectWorkspace({
      fs,
      gitdir: GITDIR,
      head,
      localRef,
      jobId: options.jobId,
      now: deps.now,
      push: async (branch, _head, signal) => {
        try {
          const result = await git.push({
            fs,
            http: fetchHttpClient(deps.fetch, signal),
            gitdir: GITDIR,
            url: options.repository,
            ref: localRef,
            remoteRef: `refs/heads/${branch}`,
            onAuth,
            signal,
          })
          if (!result.ok) {
            throw new GitOperationError('push_rejected', `push rejected: ${result.error ?? 'unknown reason'}`, {
              gitCode: 'PushRejectedError',
            })
          }
        } catch (error) {
          throw gitError(`cannot push ${branch}`, error, secrets, options.repository)
        }
      },
    })
  }
  throw new GitOperationError('not_found', `cannot clone ${options.ref}`, { gitCode: 'NotFoundError' })
}

function isMissingRef(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code
  return code === 'NotFoundError' || code === 'MissingNameError'
}
