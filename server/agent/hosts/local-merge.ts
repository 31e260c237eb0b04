import { git } from '../../git/isomorphic.ts'
import { DocentError } from '../../../shared/errors.ts'
import type { LocalRepository } from '../../git/local-workspace.ts'
import { readLocalPull, writeLocalPull } from './local-pulls.ts'

export interface LocalMergeInput {
  jobId: string
  /** The job's branch and the branch it merges into. */
  branch: string
  base: string
  /** The head the reviewer saw: when the branch moved since, nothing is merged (409). */
  expectedHead?: string
  author: { name: string; email: string }
  now: Date
}

export interface LocalMerge {
  method: 'fast-forward' | 'merge-commit' | 'already-merged'
  /** The commit the base branch points to after the merge. */
  commit: string
  head: string
  mergedAt: string
}

/**
 * Merges a local pull request: the job's branch into its base in the embedded host's bare repository, by
 * fast-forward when the base has not moved, else by a merge commit; conflicts merge nothing (409 naming the files).
 * The merge is written into the pull record, so a second merge of the same head answers the first one's result.
 */
export async function mergeLocalPull(repo: LocalRepository, input: LocalMergeInput): Promise<LocalMerge> {
  const resolve = (ref: string) => git.resolveRef({ ...repo, ref: `refs/heads/${ref}` }).catch(() => null)
  const head = await resolve(input.branch)
  if (!head) throw new DocentError('conflict', `the branch ${input.branch} does not exist (any more)`)
  if (input.expectedHead && input.expectedHead !== head) {
    throw new DocentError('conflict', `the branch ${input.branch} changed since this page was loaded; reload it and review the new changes`)
  }
  const record = await readLocalPull(repo, input.jobId)
  if (record?.mergeCommit && record.mergedHead === head && record.mergedAt) {
    return { method: 'already-merged', commit: record.mergeCommit, head, mergedAt: record.mergedAt }
  }
  const base = await resolve(input.base)
  if (!base) throw new DocentError('conflict', `the base branch ${input.base} does not exist`)
  const when = Math.floor(input.now.getTime() / 1000)
  const person = { ...input.author, timestamp: when, timezoneOffset: 0 }
  let method: LocalMerge['method']
  let commit: string
  if (base === head || (await git.isDescendent({ ...repo, oid: base, ancestor: head, depth: -1 }))) {
    method = 'already-merged'
    commit = base
  } else {
    try {
      const result = await git.merge({
        ...repo,
        ours: input.base,
        theirs: input.branch,
        author: person,
        committer: person,
        message: `Merge ${input.branch} into ${input.base}${record?.title ? `\n\n${record.title}` : ''}\n\nDocent-Job: ${input.jobId}\n`,
      })
      method = result.fastForward ? 'fast-forward' : 'merge-commit'
      commit = result.oid!
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'MergeConflictError') {
        const files = ((error as { data?: { filepaths?: string[] } }).data?.filepaths ?? []).join(', ')
        throw new DocentError(
          'conflict',
          `merging ${input.branch} into ${input.base} conflicts in ${files || 'some files'}; resolve them on the branch (a follow-up) and merge again`,
        )
      }
      if (code === 'MergeNotSupportedError') {
        throw new DocentError('conflict', `${input.branch} and ${input.base} have no single common ancestor; merge them with git`)
      }
      throw error
    }
  }
  const mergedAt = input.now.toISOString()
  if (record) await writeLocalPull(repo, { ...record, mergedAt, mergeCommit: commit, mergedHead: head })
  return { method, commit, head, mergedAt }
}

/** What the review page offers: the Merge button for the head it shows, the merge done, or a wait for a run. */
export interface ReviewMerge {
  state: 'open' | 'merged' | 'running'
  head: string
  commit?: string
}

export async function reviewMergeState(repo: LocalRepository, jobId: string, head: string, baseHead: string | null, running: boolean) {
  const record = await readLocalPull(repo, jobId)
  if (record?.mergeCommit && record.mergedHead === head) return { state: 'merged', head, commit: record.mergeCommit } satisfies ReviewMerge
  if (baseHead && (baseHead === head || (await git.isDescendent({ ...repo, oid: baseHead, ancestor: head, depth: -1 })))) {
    return { state: 'merged', head, commit: baseHead } satisfies ReviewMerge
  }
  return { state: running ? 'running' : 'open', head } satisfies ReviewMerge
}
