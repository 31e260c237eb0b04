import { startApiServer } from '../../agent-git/support/api-server.ts'

export interface Pull {
  number: number
  title: string
  body: string
  head: string
  base: string
  /** Set by a test that merges or closes the pull on "github.com"; open otherwise. */
  state?: 'open' | 'closed' | 'merged'
  mergeCommit?: string
}

/**
 * The pull-request part of GitHub's REST API (list, create, update, get), as `server/agent/hosts/github.ts` and the
 * pull request poll call it; it keeps the pulls so tests can count them, merge or close them. Requests without the
 * expected bearer token get 401.
 */
export async function startGitHubPulls(token: string, repo = 'acme/docs') {
  const pulls: Pull[] = []
  const prefix = `/repos/${repo}/pulls`
  const json = (pull: Pull) => ({
    number: pull.number,
    html_url: `https://github.example/${repo}/pull/${pull.number}`,
    title: pull.title,
    body: pull.body,
    head: { ref: pull.head },
    base: { ref: pull.base },
    state: (pull.state ?? 'open') === 'open' ? 'open' : 'closed',
    merged: pull.state === 'merged',
    merged_at: pull.state === 'merged' ? '2026-03-01T00:00:00Z' : null,
    merge_commit_sha: pull.mergeCommit ?? null,
  })
  const api = await startApiServer((request) => {
    if (request.headers.authorization !== `Bearer ${token}`) return { status: 401, body: { message: 'Bad credentials' } }
    const body = request.body as Partial<Pull> | undefined
    if (request.method === 'GET' && request.path === prefix) {
      const head = request.query.get('head')?.split(':').pop()
      return { status: 200, body: pulls.filter((pull) => (!head || pull.head === head) && (pull.state ?? 'open') === 'open').map(json) }
    }
    if (request.method === 'POST' && request.path === prefix) {
      // As GitHub: one open pull request per head branch; a closed or merged one does not stand in the way of a new one.
      if (pulls.some((pull) => pull.head === body?.head && (pull.state ?? 'open') === 'open')) {
        return { status: 422, body: { message: 'A pull request already exists' } }
      }
      const pull = {
        number: pulls.length + 1,
        title: String(body?.title),
        body: String(body?.body),
        head: String(body?.head),
        base: String(body?.base),
      }
      pulls.push(pull)
      return { status: 201, body: json(pull) }
    }
    const match = new RegExp(`^${prefix}/(\\d+)$`).exec(request.path)
    const pull = match ? pulls.find((p) => p.number === Number(match[1])) : undefined
    if (request.method === 'GET' && pull) return { status: 200, body: json(pull) }
    if (request.method === 'PATCH' && pull) {
      Object.assign(pull, { title: body?.title ?? pull.title, body: body?.body ?? pull.body })
      return { status: 200, body: json(pull) }
    }
    if (request.method === 'GET' && pull) return { status: 200, body: json(pull) }
    return { status: 404, body: { message: 'Not Found' } }
  })
  return { ...api, pulls, created: () => api.requests.filter((r) => r.method === 'POST').length }
}
