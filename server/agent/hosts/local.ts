import type { GitHost } from '../types.ts'
import { appendOnce } from './pull-description.ts'
import { trimEnd } from '../../../shared/trim.ts'
import type { LocalRepositories } from './local-repositories.ts'

export interface LocalHostOptions {
  repositories: LocalRepositories
  /** `local:<name>` of the project's agent repository. */
  repository: string
  /** Public base URL of this server: review pages are at `<publicUrl>/review/<jobId>`. */
  publicUrl: string
  now: () => Date
}

/** The embedded host: a pull request is a record beside the branch, shown as a diff at `/review/<jobId>`. */
export function createLocalHost(options: LocalHostOptions): GitHost {
  const name = options.repository.replace(/^local:/, '')
  return {
    kind: 'local',
    async pullRequestState(_pr, where) {
      if (!where.branch) return 'unknown'
      const { default: git } = await import('isomorphic-git')
      const repo = await options.repositories.open(name)
      const resolve = (ref: string) => git.resolveRef({ ...repo, ref: `refs/heads/${ref}` }).catch(() => null)
      const [head, base] = await Promise.all([resolve(where.branch), resolve(where.base)])
      if (!head) return 'closed'
      if (!base) return 'unknown'
      if (head === base || (await git.isDescendent({ ...repo, oid: base, ancestor: head, depth: -1 }))) return 'merged'
      return 'open'
    },
    async openOrUpdatePullRequest(input) {
      // isomorphic-git loads with the first pull request, not with the server.
      const { readLocalPull, writeLocalPull } = await import('./local-pulls.ts')
      const repo = await options.repositories.open(name)
      const previous = await readLocalPull(repo, input.jobId)
      const now = options.now().toISOString()
      await writeLocalPull(repo, {
        jobId: input.jobId,
        branch: input.branch,
        base: input.base,
        // A follow-up keeps the record's title and description and appends its own section.
        title: previous?.title ?? input.title,
        body: previous ? appendOnce(previous.body, input.addition) : input.body,
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
      })
      return { number: input.jobId, url: `${trimEnd(options.publicUrl, '/')}/review/${encodeURIComponent(input.jobId)}` }
    },
  }
}
