import { git } from './isomorphic.ts'
import type { OpenWorkspaceOptions, Workspace } from './types.ts'
import { type AnswerLimits, fetchHttpClient, reportingCuts } from './http-client.ts'
import { type GitFs, ObjectWorkspace } from './object-workspace.ts'
import { gitError, GitOperationError } from './errors.ts'

export interface HttpCloneOptions {
  fs: () => GitFs
  fetch: typeof fetch
  now: () => Date
  /** HTTP user name sent with the token (GitHub accepts any; `x-access-token` also suits app tokens, GitLab `oauth2`). */
  username?: string
  /** The most one git answer may hold (default MAX_GIT_REFS_BYTES, MAX_GIT_PACK_BYTES). */
  answerLimits?: AnswerLimits
}

const DIR = '/repo'
/** Commits of history fetched to find where two branches met (a maintenance branch is rarely older than this). */
const MERGE_DEPTH = 50
const GITDIR = '/repo/.git'

/**
 * Shallow, single-branch clone of `preferBranch` (when it exists) or `ref` into a fresh in-memory fs, without checking
 * out any file; the workspace reads blobs from the object store on demand.
 */
export async function openHttpWorkspace(options: OpenWorkspaceOptions, deps: HttpCloneOptions): Promise<Workspace> {
  const secrets = [options.token]
  const onAuth = options.token ? () => ({ username: deps.username ?? 'x-access-token', password: options.token }) : undefined
  const http = fetchHttpClient(deps.fetch, options.signal, deps.answerLimits)
  const candidates = options.preferBranch && options.preferBranch !== options.ref ? [options.preferBranch, options.ref] : [options.ref]
  for (const [i, ref] of candidates.entries()) {
    options.signal?.throwIfAborted()
    const fs = deps.fs()
    try {
      await reportingCuts(http, () =>
        git.clone({
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
        }),
      )
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
      fetchBranch: async (branch, signal) => {
        try {
          const http = fetchHttpClient(deps.fetch, signal, deps.answerLimits)
          // History for a merge base: the branch's last commits, and as many more of ours.
          await reportingCuts(http, () =>
            git.fetch({
              fs,
              http,
              gitdir: GITDIR,
              url: options.repository,
              ref: branch,
              singleBranch: true,
              depth: MERGE_DEPTH,
              tags: false,
              onAuth,
            }),
          )
          await git
            .fetch({
              fs,
              http,
              gitdir: GITDIR,
              url: options.repository,
              ref,
              singleBranch: true,
              depth: MERGE_DEPTH,
              relative: true,
              tags: false,
              onAuth,
            })
            .catch(() => undefined)
          return await git.resolveRef({ fs, gitdir: GITDIR, ref: `refs/remotes/origin/${branch}` })
        } catch (error) {
          if (isMissingRef(error)) return null
          throw gitError(`cannot fetch ${branch}`, error, secrets, options.repository)
        }
      },
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
