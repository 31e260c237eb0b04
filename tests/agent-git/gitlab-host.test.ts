import { afterEach, describe, expect, it } from 'vitest'
import { createGitLabHost } from '../../server/agent/hosts/gitlab.ts'
import type { PullRequestInput } from '../../server/agent/types.ts'
import { type RecordedRequest, startApiServer } from './support/api-server.ts'

const TOKEN = 'glpat-0123456789abcdefghij'

interface FakeMr {
  iid: number
  title: string
  description: string
  source_branch: string
  target_branch: string
  state: 'opened' | 'closed' | 'merged'
}

/**
 * The GitLab merge requests API v4 as documented (docs.gitlab.com/api/merge_requests): `PRIVATE-TOKEN` header,
 * project id URL-encoded (`acme%2Fdocs`), create answers 201 (409 when an open MR from the branch exists),
 * list filters by `source_branch`/`target_branch`/`state=opened`, update is `PUT .../merge_requests/:iid`.
 */
function fakeGitLab() {
  const mrs: FakeMr[] = []
  const view = (mr: FakeMr) => ({
    id: 5000 + mr.iid,
    iid: mr.iid,
    project_id: 42,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    source_branch: mr.source_branch,
    target_branch: mr.target_branch,
    web_url: `https://gitlab.example/acme/docs/-/merge_requests/${mr.iid}`,
  })
  const handle = (request: RecordedRequest) => {
    if (request.headers['private-token'] !== TOKEN) return { status: 401, body: { message: '401 Unauthorized' } }
    const base = '/api/v4/projects/acme%2Fdocs/merge_requests'
    if (request.method === 'POST' && request.path === base) {
      expect(request.headers['content-type']).toMatch(/^application\/json/)
      const body = request.body as Record<string, unknown>
      expect(body).toMatchObject({
        source_branch: expect.any(String),
        target_branch: expect.any(String),
        title: expect.any(String),
        description: expect.any(String),
      })
      const open = mrs.find((m) => m.source_branch === body.source_branch && m.state === 'opened')
      if (open) {
        return { status: 409, body: { message: [`Another open merge request already exists for this source branch: !${open.iid}`] } }
      }
      const mr: FakeMr = {
        iid: mrs.length + 1,
        title: String(body.title),
        description: String(body.description),
        source_branch: String(body.source_branch),
        target_branch: String(body.target_branch),
        state: 'opened',
      }
      mrs.push(mr)
      return { status: 201, body: view(mr) }
    }
    if (request.method === 'GET' && request.path === base) {
      const q = request.query
      const found = mrs.filter(
        (m) =>
          (!q.get('source_branch') || m.source_branch === q.get('source_branch')) &&
          (!q.get('target_branch') || m.target_branch === q.get('target_branch')) &&
          (!q.get('state') || q.get('state') === 'all' || m.state === q.get('state')),
      )
      return { status: 200, body: found.map(view) }
    }
    const match = new RegExp(`^${base}/(\\d+)$`).exec(request.path)
    if (request.method === 'GET' && match) {
      const mr = mrs.find((m) => m.iid === Number(match[1]))
      return mr ? { status: 200, body: view(mr) } : { status: 404, body: { message: '404 Not found' } }
    }
    if (request.method === 'PUT' && match) {
      const mr = mrs.find((m) => m.iid === Number(match[1]))
      if (!mr) return { status: 404, body: { message: '404 Not found' } }
      const body = request.body as Record<string, unknown>
      if (typeof body.title === 'string') mr.title = body.title
      if (typeof body.description === 'string') mr.description = body.description
      if (body.state_event === 'reopen' && mr.state === 'closed') mr.state = 'opened'
      if (body.state_event === 'close' && mr.state === 'opened') mr.state = 'closed'
      return { status: 200, body: view(mr) }
    }
    return { status: 404, body: { error: '404 Not Found' } }
  }
  return { mrs, handle }
}

const input = (over: Partial<PullRequestInput> = {}): PullRequestInput => ({
  jobId: 'job1',
  branch: 'docent/rename-job1',
  base: 'main',
  title: 'Rename the product',
  body: 'What changed.',
  addition: null,
  existing: null,
  ...over,
})

const servers: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function setup(token = TOKEN) {
  const fake = fakeGitLab()
  const server = await startApiServer(fake.handle)
  servers.push(server)
  return { fake, server, host: createGitLabHost({ fetch, apiBase: `${server.url}/api/v4`, project: 'acme/docs', token }) }
}

describe('GitLab host', () => {
  it('opens a merge request with the documented request; a follow-up keeps its title and description and appends its own', async () => {
    const { fake, server, host } = await setup()
    const first = await host.openOrUpdatePullRequest(input())
    expect(first).toEqual({ number: '1', url: 'https://gitlab.example/acme/docs/-/merge_requests/1' })
    const lookup = server.requests[0]!
    expect(lookup.method).toBe('GET')
    expect(lookup.path).toBe('/api/v4/projects/acme%2Fdocs/merge_requests')
    expect(Object.fromEntries(lookup.query)).toEqual({ source_branch: 'docent/rename-job1', target_branch: 'main', state: 'opened' })
    const create = server.requests[1]!
    expect(create.method).toBe('POST')
    expect(create.body).toEqual({
      source_branch: 'docent/rename-job1',
      target_branch: 'main',
      title: 'Rename the product',
      description: 'What changed.',
      remove_source_branch: true,
    })

    const second = await host.openOrUpdatePullRequest(
      input({ title: 'Second', body: 'More.', addition: 'Follow-up 2: more', existing: first }),
    )
    expect(second).toEqual(first)
    const [get, put] = server.requests.slice(-2)
    expect([get!.method, get!.path]).toEqual(['GET', '/api/v4/projects/acme%2Fdocs/merge_requests/1'])
    expect(put!.method).toBe('PUT')
    expect(put!.path).toBe('/api/v4/projects/acme%2Fdocs/merge_requests/1')
    expect(put!.body).toEqual({ description: 'What changed.\n\nFollow-up 2: more' })
    expect(fake.mrs).toHaveLength(1)
    expect(fake.mrs[0]).toMatchObject({ title: 'Rename the product', description: 'What changed.\n\nFollow-up 2: more' })
  })

  it('a retry without the record finds the open MR by source branch instead of opening another', async () => {
    const { fake, host } = await setup()
    const first = await host.openOrUpdatePullRequest(input())
    expect(await host.openOrUpdatePullRequest(input({ title: 'retry' }))).toEqual(first)
    expect(fake.mrs).toHaveLength(1)
    expect(fake.mrs[0]!.title).toBe('Rename the product')
  })

  it('a follow-up never reopens an MR a reviewer closed: it opens a new one, as it does after a merge', async () => {
    const { fake, server, host } = await setup()
    const first = await host.openOrUpdatePullRequest(input())
    fake.mrs[0]!.state = 'closed'
    const second = await host.openOrUpdatePullRequest(input({ existing: first }))
    expect(second).toEqual({ number: '2', url: 'https://gitlab.example/acme/docs/-/merge_requests/2' })
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([])

    fake.mrs[1]!.state = 'merged'
    const next = await host.openOrUpdatePullRequest(input({ existing: second }))
    expect(next).toEqual({ number: '3', url: 'https://gitlab.example/acme/docs/-/merge_requests/3' })
    expect(fake.mrs.map((m) => m.state)).toEqual(['closed', 'merged', 'opened'])
  })

  it('a rejected token gives an error without the token', async () => {
    const { host } = await setup('glpat-wrongwrongwrong')
    const error = (await host.openOrUpdatePullRequest(input()).catch((e: unknown) => e)) as Error
    expect(error.message).toContain('401')
    expect(error.message).not.toContain('glpat-wrongwrongwrong')
  })
})
