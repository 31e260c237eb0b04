import { startApiServer } from '../agent-git/support/api-server.ts'

export interface ScriptedMergeRequest {
  number: number
  title: string
  body: string
  head: string
  base: string
  state: 'open' | 'closed' | 'merged'
  mergeCommit: string | null
}

/**
 * GitLab's merge requests API (create, list by source branch, update, get) as the GitLab host and the merge request
 * poll call it; `project` as `group/name`, URL-encoded in paths as GitLab has it.
 */
export async function startScriptedGitLab(token: string, project = 'acme/docs') {
  const requests: ScriptedMergeRequest[] = []
  const prefix = `/projects/${encodeURIComponent(project)}/merge_requests`
  const view = (mr: ScriptedMergeRequest) => ({
    iid: mr.number,
    web_url: `https://gitlab.example/${project}/-/merge_requests/${mr.number}`,
    title: mr.title,
    description: mr.body,
    source_branch: mr.head,
    target_branch: mr.base,
    state: mr.state === 'open' ? 'opened' : mr.state,
    merge_commit_sha: mr.mergeCommit,
  })
  const api = await startApiServer((request) => {
    if (request.headers['private-token'] !== token) return { status: 401, body: { message: '401 Unauthorized' } }
    const body = (request.body ?? {}) as Record<string, string>
    if (request.method === 'GET' && request.path === prefix) {
      const source = request.query.get('source_branch')
      return { status: 200, body: requests.filter((mr) => mr.state === 'open' && (!source || mr.head === source)).map(view) }
    }
    if (request.method === 'POST' && request.path === prefix) {
      const mr: ScriptedMergeRequest = {
        number: requests.length + 1,
        title: body.title!,
        body: body.description!,
        head: body.source_branch!,
        base: body.target_branch!,
        state: 'open',
        mergeCommit: null,
      }
      requests.push(mr)
      return { status: 201, body: view(mr) }
    }
    const match = /\/(\d+)$/.exec(request.path)
    const mr = request.path.startsWith(`${prefix}/`) && match ? requests.find((m) => m.number === Number(match[1])) : undefined
    if (mr && request.method === 'PUT') {
      Object.assign(mr, { title: body.title ?? mr.title, body: body.description ?? mr.body })
      return { status: 200, body: view(mr) }
    }
    if (mr && request.method === 'GET') return { status: 200, body: view(mr) }
    return { status: 404, body: { message: '404 Not found' } }
  })
  return { ...api, requests }
}
