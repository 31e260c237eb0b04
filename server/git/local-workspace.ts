import { git } from './isomorphic.ts'
import type { OpenWorkspaceOptions, Workspace } from './types.ts'
import { type GitFs, ObjectWorkspace } from './object-workspace.ts'
import { GitOperationError, pushRejected } from './errors.ts'

export interface LocalRepository {
  fs: GitFs
  /** The bare repository's directory. */
  gitdir: string
}

/**
 * A workspace straight on a bare repository of the embedded host: no clone, since the object store is at hand.
 * New objects are written into it as the agent commits; "push" moves the branch ref, fast-forward only.
 */
export async function openLocalWorkspace(
  repo: LocalRepository,
  options: OpenWorkspaceOptions,
  now: () => Date,
  /** Told of every branch this workspace moves (the embedded host sees its own pushes: content triggers). */
  onPush?: (branch: string, commit: string) => void,
): Promise<Workspace> {
  const { fs, gitdir } = repo
  const resolve = (ref: string) => git.resolveRef({ fs, gitdir, ref: `refs/heads/${ref}` }).catch(() => null)
  const head = (options.preferBranch ? await resolve(options.preferBranch) : null) ?? (await resolve(options.ref))
  if (!head) {
    throw new GitOperationError('not_found', `cannot open ${options.repository}: no branch "${options.ref}"`, { gitCode: 'NotFoundError' })
  }
  return new ObjectWorkspace({
    fs,
    gitdir,
    head,
    jobId: options.jobId,
    now,
    push: async (branch, commit) => {
      const current = await resolve(branch)
      if (current && current !== commit && !(await git.isDescendent({ fs, gitdir, oid: commit, ancestor: current, depth: -1 }))) {
        throw pushRejected(`cannot push ${branch}`, 'not-fast-forward')
      }
      await git.writeRef({ fs, gitdir, ref: `refs/heads/${branch}`, value: commit, force: true })
      if (current !== commit) onPush?.(branch, commit)
    },
    // The whole history is at hand: the branch's head is all a merge needs.
    fetchBranch: async (branch) => resolve(branch),
  })
}
