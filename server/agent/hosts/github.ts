import type { PullRequestRef } from '../../store/types.ts'
import type { GitHost, PullRequestInput } from '../types.ts'
import { appendOnce } from './pull-description.ts'
import { z } from 'zod'
import { HostApiError, hostRequest, webAddress } from './host-http.ts'
import { trimEnd } from '../../../shared/trim.ts'
import { openOrUpdate } from './pull-flow.ts'

export interface GitHubHostOptions {
  fetch: typeof fetch
  /** `https://api.github.com`, GitHub Enterprise `https://HOST/api/v3`, Gitea/Forgejo `https://HOST/api/v1`. */
  apiBase: string
  /** `owner/name`. */
  repo: string
  token: string
}

const Pull = z.object({
  number: z.number().int().nonnegative(),
  html_url: webAddress,
  body: z.string().nullish(),
  state: z.string().optional(),
  merged_at: z.string().nullish(),
  head: z.object({ ref: z.string().optional() }).nullish(),
})
type Pull = z.infer<typeof Pull>

/**
 * Pull requests through the GitHub REST API (also GitHub Enterprise, and Gitea/Forgejo whose `/api/v1` pull API has
 * the same paths and fields). Idempotent per job: the known PR is extended, else an open PR from the branch is found,
 * else one is opened. A PR's title and description stay as they are; a follow-up appends its own section.
 */
export function createGitHubHost(options: GitHubHostOptions): GitHost {
  const base = trimEnd(options.apiBase, '/')
  const [owner, name] = options.repo.split('/') as [string, string]
  const repoPath = `${base}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`
  const call = <S extends z.ZodType>(schema: S, method: 'GET' | 'POST' | 'PATCH', url: string, body: unknown, signal?: AbortSignal) =>
    hostRequest({
      schema,
      fetch: options.fetch,
      method,
      url,
      body,
      signal,
      secret: options.token,
      host: 'GitHub',
      headers: {
        Accept: 'application/vnd.github+json',
        Authorization: `Bearer ${options.token}`,
        'X-GitHub-Api-Version': '2022-11-28',
        'User-Agent': 'docent',
      },
    })
  const ref = (pull: Pull): PullRequestRef => ({ number: String(pull.number), url: pull.html_url })
  /** Keeps the open PR's title and description and appends this run's section (once). */
  const extend = async (pull: Pull, input: PullRequestInput, signal?: AbortSignal) => {
    const body = appendOnce(pull.body ?? '', input.addition)
    if (body === (pull.body ?? '')) return ref(pull)
    return ref(await call(Pull, 'PATCH', `${repoPath}/pulls/${encodeURIComponent(String(pull.number))}`, { body }, signal))
  }
  /**
   * Extends the job's known PR while it is open. A merged or closed one yields null, so the caller opens a new one: a
   * reviewer who closed it said no, which reopening would override (API.md: the job's prLink moves to the new one).
   */
  const updateKnown = async (number: string, input: PullRequestInput, signal?: AbortSignal): Promise<PullRequestRef | null> => {
    try {
      const pull = await call(Pull, 'GET', `${repoPath}/pulls/${encodeURIComponent(number)}`, undefined, signal)
      if (pull.state === 'closed' || pull.merged_at) return null
      return await extend(pull, input, signal)
    } catch (error) {
      if (error instanceof HostApiError && (error.code === 'not_found' || error.code === 'conflict')) return null
      throw error
    }
  }
  const findOpen = async (input: PullRequestInput, signal?: AbortSignal): Promise<Pull | undefined> => {
    const query = new URLSearchParams({ head: `${owner}:${input.branch}`, base: input.base, state: 'open' })
    const pulls = await call(z.array(Pull), 'GET', `${repoPath}/pulls?${query}`, undefined, signal)
    // Gitea ignores the head filter: match the branch here too.
    return pulls.find((pull) => pull.head?.ref === input.branch)
  }

  const create = async (input: PullRequestInput, signal?: AbortSignal) =>
    ref(
      await call(Pull, 'POST', `${repoPath}/pulls`, { title: input.title, head: input.branch, base: input.base, body: input.body }, signal),
    )

  return {
    kind: 'github',
    async pullRequestState(pr, _where, opts) {
      try {
        const pull = await call(Pull, 'GET', `${repoPath}/pulls/${encodeURIComponent(pr.number)}`, undefined, opts?.signal)
        return pull.state === 'open' ? 'open' : pull.merged_at ? 'merged' : pull.state === 'closed' ? 'closed' : 'unknown'
      } catch (error) {
        if (error instanceof HostApiError && error.code !== 'authentication_failed') return 'unknown'
        throw error
      }
    },
    openOrUpdatePullRequest: (input, opts) => openOrUpdate({ updateKnown, findOpen, extend, create }, input, opts?.signal),
  }
}
