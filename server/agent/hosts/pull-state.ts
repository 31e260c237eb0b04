import { git } from '../../git/isomorphic.ts'
import type { LocalRepository } from '../../git/local-workspace.ts'
import { z } from 'zod'
import { hostRequest } from './host-http.ts'
import { trimEnd } from '../../../shared/trim.ts'
import { readLocalPull } from './local-pulls.ts'

/** Where a pull request stands: still open, merged (into which commit, when the host says), or closed unmerged. */
export type PullState = { state: 'open' } | { state: 'merged'; commit: string | null } | { state: 'closed' }

export interface HostApi {
  fetch: typeof fetch
  apiBase: string
  token: string
}

/** `GET /repos/{owner}/{repo}/pulls/{number}` (GitHub, GitHub Enterprise, Gitea/Forgejo). */
export async function gitHubPullState(api: HostApi & { repo: string }, number: string): Promise<PullState> {
  const [owner, name] = api.repo.split('/') as [string, string]
  const pull = await hostRequest({
    schema: z.object({
      state: z.string().optional(),
      merged: z.boolean().nullish(),
      merged_at: z.string().nullish(),
      merge_commit_sha: z.string().nullish(),
    }),
    fetch: api.fetch,
    method: 'GET',
    url: `${trimEnd(api.apiBase, '/')}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pulls/${encodeURIComponent(number)}`,
    secret: api.token,
    host: 'GitHub',
    headers: {
      Accept: 'application/vnd.github+json',
      Authorization: `Bearer ${api.token}`,
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': 'docent',
    },
  })
  if (pull.merged || pull.merged_at) return { state: 'merged', commit: pull.merge_commit_sha ?? null }
  return pull.state === 'closed' ? { state: 'closed' } : { state: 'open' }
}

/** `GET /projects/{id}/merge_requests/{iid}` (GitLab). */
export async function gitLabPullState(api: HostApi & { project: string }, iid: string): Promise<PullState> {
  const mr = await hostRequest({
    schema: z.object({
      state: z.string().optional(),
      merge_commit_sha: z.string().nullish(),
      squash_commit_sha: z.string().nullish(),
      sha: z.string().nullish(),
    }),
    fetch: api.fetch,
    method: 'GET',
    url: `${trimEnd(api.apiBase, '/')}/projects/${encodeURIComponent(api.project)}/merge_requests/${encodeURIComponent(iid)}`,
    secret: api.token,
    host: 'GitLab',
    headers: { 'PRIVATE-TOKEN': api.token, Accept: 'application/json' },
  })
  // A fast-forward merge has no merge commit: the branch head itself is what the base now holds.
  if (mr.state === 'merged') return { state: 'merged', commit: mr.merge_commit_sha ?? mr.squash_commit_sha ?? mr.sha ?? null }
  return mr.state === 'closed' ? { state: 'closed' } : { state: 'open' }
}

/**
 * A local pull request: merged when Docent merged it, or when its branch head is in the base (merged by other
 * means, e.g. `git push` of a merge); local pull requests are never closed.
 */
export async function localPullState(repo: LocalRepository, jobId: string, branch: string, base: string): Promise<PullState> {
  const record = await readLocalPull(repo, jobId)
  const resolve = (ref: string) => git.resolveRef({ ...repo, ref: `refs/heads/${ref}` }).catch(() => null)
  const [head, baseHead] = await Promise.all([resolve(branch), resolve(base)])
  if (record?.mergeCommit && record.mergedHead === head) return { state: 'merged', commit: record.mergeCommit }
  if (head && baseHead && head !== baseHead && (await git.isDescendent({ ...repo, oid: baseHead, ancestor: head, depth: -1 }))) {
    return { state: 'merged', commit: baseHead }
  }
  return { state: 'open' }
}
