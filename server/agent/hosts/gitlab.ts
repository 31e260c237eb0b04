import type { PullRequestRef } from '../../store/types.ts'
import type { GitHost, PullRequestInput } from '../types.ts'
import { HostApiError, hostRequest } from './host-http.ts'

export interface GitLabHostOptions {
  fetch: typeof fetch
  /** `https://gitlab.com/api/v4` or a self-managed `https://HOST/api/v4`. */
  apiBase: string
  /** Numeric id or `group/name`. */
  project: string
  token: string
}

interface MergeRequest {
  iid: number
  web_url: string
}

/** Merge requests through the GitLab REST API v4; idempotent per job like the GitHub host. */
export function createGitLabHost(options: GitLabHostOptions): GitHost {
  const base = options.apiBase.replace(/\/+$/, '')
  const projectPath = `${base}/projects/${encodeURIComponent(options.project)}`
  const call = <T>(method: 'GET' | 'POST' | 'PUT', url: string, body: unknown, signal?: AbortSignal) =>
    hostRequest<T>({ fetch: options.fetch, method, url, body, signal, secret: options.token, host: 'GitLab', headers: { 'PRIVATE-TOKEN': options.token, Accept: 'application/json' } })
  const ref = (mr: MergeRequest): PullRequestRef => ({ number: String(mr.iid), url: mr.web_url })
  const update = async (iid: string, input: PullRequestInput, signal?: AbortSignal) =>
    ref(await call<MergeRequest>('PUT', `${projectPath}/merge_requests/${encodeURIComponent(iid)}`, { title: input.title, description: input.body }, signal))
  const findOpen = async (input: PullRequestInput, signal?: AbortSignal) => {
    const query = new URLSearchParams({ source_branch: input.branch, target_branch: input.base, state: 'opened' })
    return (await call<MergeRequest[]>('GET', `${projectPath}/merge_requests?${query}`, undefined, signal))[0]
  }

  return {
    kind: 'gitlab',
    async openOrUpdatePullRequest(input, opts) {
      const signal = opts?.signal
      if (input.existing) {
        try {
          return await update(input.existing.number, input, signal)
        } catch (error) {
          if (!(error instanceof HostApiError && error.status === 404)) throw error
        }
      }
      const open = await findOpen(input, signal)
      if (open) return update(String(open.iid), input, signal)
      try {
        const body = { source_branch: input.branch, target_branch: input.base, title: input.title, description: input.body, remove_source_branch: true }
        return ref(await call<MergeRequest>('POST', `${projectPath}/merge_requests`, body, signal))
      } catch (error) {
        // GitLab answers 409 when an open merge request from the branch already exists.
        if (error instanceof HostApiError && error.status === 409) {
          const raced = await findOpen(input, signal)
          if (raced) return update(String(raced.iid), input, signal)
        }
        throw error
      }
    },
  }
}
