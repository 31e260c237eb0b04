import type { PullRequestRef } from '../../store/types.ts'
import type { GitHost, PullRequestInput } from '../types.ts'
import { appendOnce } from './pull-description.ts'
import { z } from 'zod'
import { HostApiError, hostRequest, webAddress } from './host-http.ts'
import { trimEnd } from '../../../shared/trim.ts'
import { openOrUpdate } from './pull-flow.ts'

export interface GitLabHostOptions {
  fetch: typeof fetch
  /** `https://gitlab.com/api/v4` or a self-managed `https://HOST/api/v4`. */
  apiBase: string
  /** Numeric id or `group/name`. */
  project: string
  token: string
}

const MergeRequest = z.object({
  iid: z.number().int().nonnegative(),
  web_url: webAddress,
  description: z.string().nullish(),
  state: z.string().optional(),
})
type MergeRequest = z.infer<typeof MergeRequest>

/** Merge requests through the GitLab REST API v4; idempotent per job like the GitHub host. */
export function createGitLabHost(options: GitLabHostOptions): GitHost {
  const base = trimEnd(options.apiBase, '/')
  const projectPath = `${base}/projects/${encodeURIComponent(options.project)}`
  const call = <S extends z.ZodType>(schema: S, method: 'GET' | 'POST' | 'PUT', url: string, body: unknown, signal?: AbortSignal) =>
    hostRequest({
      schema,
      fetch: options.fetch,
      method,
      url,
      body,
      signal,
      secret: options.token,
      host: 'GitLab',
      headers: { 'PRIVATE-TOKEN': options.token, Accept: 'application/json' },
    })
  const ref = (mr: MergeRequest): PullRequestRef => ({ number: String(mr.iid), url: mr.web_url })
  /** Keeps the open MR's title and description and appends this run's section (once). */
  const extend = async (mr: MergeRequest, input: PullRequestInput, signal?: AbortSignal) => {
    const description = appendOnce(mr.description ?? '', input.addition)
    if (description === (mr.description ?? '')) return ref(mr)
    const url = `${projectPath}/merge_requests/${encodeURIComponent(String(mr.iid))}`
    return ref(await call(MergeRequest, 'PUT', url, { description }, signal))
  }
  /**
   * Extends the job's known MR while it is open; null when it was merged, closed (a reviewer's no, which reopening
   * would override) or is gone: then an open one from the branch is found, or a new one opened.
   */
  const updateKnown = async (iid: string, input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef | null> => {
    try {
      const mr = await call(MergeRequest, 'GET', `${projectPath}/merge_requests/${encodeURIComponent(iid)}`, undefined, signal)
      if (mr.state === 'merged' || mr.state === 'closed') return null
      return await extend(mr, input, signal)
    } catch (error) {
      if (error instanceof HostApiError && (error.code === 'not_found' || error.code === 'conflict')) return null
      throw error
    }
  }
  const findOpen = async (input: PullRequestInput, signal?: AbortSignal) => {
    const query = new URLSearchParams({ source_branch: input.branch, target_branch: input.base, state: 'opened' })
    return (await call(z.array(MergeRequest), 'GET', `${projectPath}/merge_requests?${query}`, undefined, signal))[0]
  }

  const create = async (input: PullRequestInput, signal?: AbortSignal) => {
    const body = {
      source_branch: input.branch,
      target_branch: input.base,
      title: input.title,
      description: input.body,
      remove_source_branch: true,
    }
    return ref(await call(MergeRequest, 'POST', `${projectPath}/merge_requests`, body, signal))
  }

  return {
    kind: 'gitlab',
    async pullRequestState(pr, _where, opts) {
      try {
        const mr = await call(
          MergeRequest,
          'GET',
          `${projectPath}/merge_requests/${encodeURIComponent(pr.number)}`,
          undefined,
          opts?.signal,
        )
        return mr.state === 'opened' ? 'open' : mr.state === 'merged' ? 'merged' : mr.state === 'closed' ? 'closed' : 'unknown'
      } catch (error) {
        if (error instanceof HostApiError && error.code !== 'authentication_failed') return 'unknown'
        throw error
      }
    },
    openOrUpdatePullRequest: (input, opts) => openOrUpdate({ updateKnown, findOpen, extend, create }, input, opts?.signal),
  }
}
