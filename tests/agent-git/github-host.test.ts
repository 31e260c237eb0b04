import { afterEach, describe, expect, it } from 'vitest'
import { createGitHubHost } from '../../server/agent/hosts/github.ts'
import type { PullRequestInput } from '../../server/agent/types.ts'
import { type RecordedRequest, startApiServer } from './support/api-server.ts'

const TOKEN = 'ghp_0123456789abcdefTOKEN'

interface FakePull {
  number: number
  title: string
  body: string
  head: string
  base: string
  state: 'open' | 'closed'
  merged: boolean
}

/**
 * A GitHub REST v3 pulls API as documented (docs.github.com/en/rest/pulls/pulls): every request must carry
 * `Accept: application/vnd.github+json`, `Authorization: Bearer <token>` and `X-GitHub-Api-Version: 2022-11-28`;
 * create answers 201 with the pull, list filters by `head=owner:branch`, update answers 200.
 */
function fakeGitHub(prefix: string, options: { ignoreHeadFilter?: boolean } = {}) {
  const pulls: FakePull[] = []
  const view = (pull: FakePull, origin: string) => ({
    url: `${origin}${prefix}/repos/acme/docs/pulls/${pull.number}`,
    id: 1000 + pull.number,
    number: pull.number,
    state: pull.state,
    merged_at: pull.merged ? '2026-01-01T00:00:00Z' : null,
    title: pull.title,
    body: pull.body,
    html_url: `https://github.example/acme/docs/pull/${pull.number}`,
    head: { label: `acme:${pull.head}`, ref: pull.head, sha: 'a'.repeat(40) },
    base: { label: `acme:${pull.base}`, ref: pull.base, sha: 'b'.repeat(40) },
  })
  const handle = (request: RecordedRequest) => {
    expect(request.headers.accept).toBe('application/vnd.github+json')
    expect(request.headers['x-github-api-version']).toBe('2022-11-28')
    expect(request.headers['user-agent']).toBeTruthy()
    if (request.headers.authorization !== `Bearer ${TOKEN}`) {
      return { status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } }
    }
    const origin = 'http://api'
    const path = request.path.slice(prefix.length)
    if (request.method === 'POST' && path === '/repos/acme/docs/pulls') {
      expect(request.headers['content-type']).toMatch(/^application\/json/)
      const body = request.body as Record<string, unknown>
      expect(Object.keys(body).sort()).toEqual(['base', 'body', 'head', 'title'])
      if (pulls.some((p) => p.head === body.head && p.state === 'open')) {
        return {
          status: 422,
          body: {
            message: 'Validation Failed',
            errors: [{ resource: 'PullRequest', code: 'custom', message: `A pull request already exists for acme:${body.head}.` }],
          },
        }
      }
      const pull: FakePull = {
        number: pulls.length + 1,
        title: String(body.title),
        body: String(body.body),
        head: String(body.head),
        base: String(body.base),
        state: 'open',
        merged: false,
      }
      pulls.push(pull)
      return { status: 201, body: view(pull, origin) }
    }
    if (request.method === 'GET' && path === '/repos/acme/docs/pulls') {
      const head = request.query.get('head')
      const state = request.query.get('state') ?? 'open'
      const found = pulls.filter(
        (p) => (options.ignoreHeadFilter || !head || `acme:${p.head}` === head) && (state === 'all' || p.state === state),
      )
      return { status: 200, body: found.map((p) => view(p, origin)) }
    }
    const match = /^\/repos\/acme\/docs\/pulls\/(\d+)$/.exec(path)
    if (request.method === 'GET' && match) {
      const pull = pulls.find((p) => p.number === Number(match[1]))
      return pull ? { status: 200, body: view(pull, origin) } : { status: 404, body: { message: 'Not Found' } }
    }
    if (request.method === 'PATCH' && match) {
      const pull = pulls.find((p) => p.number === Number(match[1]))
      if (!pull) return { status: 404, body: { message: 'Not Found' } }
      const body = request.body as Record<string, unknown>
      // Documented fields of "Update a pull request": title, body, state, base, maintainer_can_modify.
      for (const key of Object.keys(body)) expect(['title', 'body', 'state', 'base', 'maintainer_can_modify']).toContain(key)
      if (typeof body.title === 'string') pull.title = body.title
      if (typeof body.body === 'string') pull.body = body.body
      if (body.state === 'open' || body.state === 'closed') {
        if (pull.merged) {
          return {
            status: 422,
            body: { message: 'Validation Failed', errors: [{ message: 'state cannot be changed. The pull request has been merged.' }] },
          }
        }
        pull.state = body.state
      }
      return { status: 200, body: view(pull, origin) }
    }
    return { status: 404, body: { message: 'Not Found' } }
  }
  return { pulls, handle }
}

const input = (over: Partial<PullRequestInput> = {}): PullRequestInput => ({
  jobId: 'job1',
  branch: 'docent/rename-job1',
  base: 'main',
  title: 'Rename the product',
  body: 'Replaced "Acme Cloud" with "Acme Platform".',
  addition: null,
  existing: null,
  ...over,
})

const servers: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close()
})

async function setup(prefix: string, options: { ignoreHeadFilter?: boolean } = {}) {
  const fake = fakeGitHub(prefix, options)
  const server = await startApiServer(fake.handle)
  servers.push(server)
  const host = createGitHubHost({ fetch, apiBase: `${server.url}${prefix}`, repo: 'acme/docs', token: TOKEN })
  return { fake, server, host }
}

describe('GitHub host', () => {
  it('opens a pull request with the documented request; a follow-up keeps its title and description and appends its own', async () => {
    const { fake, server, host } = await setup('')
    const first = await host.openOrUpdatePullRequest(input())
    expect(first).toEqual({ number: '1', url: 'https://github.example/acme/docs/pull/1' })
    const create = server.requests.find((r) => r.method === 'POST')!
    expect(create.path).toBe('/repos/acme/docs/pulls')
    expect(create.body).toEqual({
      title: 'Rename the product',
      head: 'docent/rename-job1',
      base: 'main',
      body: 'Replaced "Acme Cloud" with "Acme Platform".',
    })
    const lookup = server.requests.find((r) => r.method === 'GET')!
    expect(lookup.query.get('head')).toBe('acme:docent/rename-job1')
    expect(lookup.query.get('state')).toBe('open')

    // Someone edited the description meanwhile: the follow-up keeps that too.
    fake.pulls[0]!.body += '\n\nReviewed by Ana.'
    const followUp = input({
      title: 'Rename, take two',
      body: 'unused',
      addition: '---\nFollow-up 2: also the API\n\nRenamed it in the API pages.',
    })
    const second = await host.openOrUpdatePullRequest({ ...followUp, existing: first })
    expect(second).toEqual(first)
    const [get, patch] = server.requests.slice(-2)
    expect([get!.method, get!.path]).toEqual(['GET', '/repos/acme/docs/pulls/1'])
    expect([patch!.method, patch!.path]).toEqual(['PATCH', '/repos/acme/docs/pulls/1'])
    const description =
      'Replaced "Acme Cloud" with "Acme Platform".\n\nReviewed by Ana.\n\n---\nFollow-up 2: also the API\n\nRenamed it in the API pages.'
    expect(patch!.body).toEqual({ body: description })
    expect(fake.pulls).toHaveLength(1)
    expect(fake.pulls[0]).toMatchObject({ title: 'Rename the product', body: description })

    // The same follow-up retried (its first attempt died after the update) appends nothing.
    const before = server.requests.length
    await host.openOrUpdatePullRequest({ ...followUp, existing: first })
    expect(server.requests.slice(before).map((r) => r.method)).toEqual(['GET'])
    expect(fake.pulls[0]!.body).toBe(description)
  })

  it('a retried run that lost the PR record finds the open PR by head and does not open a second', async () => {
    const { fake, host } = await setup('')
    const first = await host.openOrUpdatePullRequest(input())
    const again = await host.openOrUpdatePullRequest(input({ body: 'retry' }))
    expect(again).toEqual(first)
    expect(fake.pulls).toHaveLength(1)
    expect(fake.pulls[0]!.body).toBe('Replaced "Acme Cloud" with "Acme Platform".')
  })

  it('a closed PR that is gone (404 on update) leads to a new one', async () => {
    const { fake, host } = await setup('')
    const opened = await host.openOrUpdatePullRequest(
      input({ existing: { number: '99', url: 'https://github.example/acme/docs/pull/99' } }),
    )
    expect(opened.number).toBe('1')
    expect(fake.pulls).toHaveLength(1)
  })

  it('a follow-up never reopens a PR a reviewer closed: it opens a new one, as it does after a merge', async () => {
    const { fake, server, host } = await setup('')
    const first = await host.openOrUpdatePullRequest(input())
    fake.pulls[0]!.state = 'closed'
    const second = await host.openOrUpdatePullRequest(input({ title: 'Again', existing: first }))
    expect(second.number).toBe('2')
    expect(server.requests.filter((r) => r.method === 'PATCH')).toEqual([])

    Object.assign(fake.pulls[1]!, { state: 'closed', merged: true })
    const next = await host.openOrUpdatePullRequest(input({ title: 'More edits', existing: second }))
    expect(next.number).toBe('3')
    expect(fake.pulls.map((p) => [p.number, p.state, p.title])).toEqual([
      [1, 'closed', 'Rename the product'],
      [2, 'closed', 'Again'],
      [3, 'open', 'More edits'],
    ])
  })

  it('works on GitHub Enterprise under /api/v3', async () => {
    const { server, host } = await setup('/api/v3')
    const pr = await host.openOrUpdatePullRequest(input())
    expect(pr.number).toBe('1')
    expect(server.requests.every((r) => r.path.startsWith('/api/v3/repos/acme/docs/pulls'))).toBe(true)
  })

  it('works with Gitea/Forgejo under /api/v1, which ignores the head filter', async () => {
    const { fake, host } = await setup('/api/v1', { ignoreHeadFilter: true })
    await host.openOrUpdatePullRequest(input({ branch: 'docent/other-job0', jobId: 'job0' }))
    const mine = await host.openOrUpdatePullRequest(input())
    expect(mine.number).toBe('2')
    const again = await host.openOrUpdatePullRequest(input({ title: 'again' }))
    expect(again.number).toBe('2')
    expect(fake.pulls.map((p) => p.title)).toEqual(['Rename the product', 'Rename the product'])
  })

  it('a rejected token gives an error naming the call, never the token', async () => {
    const fake = fakeGitHub('')
    const server = await startApiServer(fake.handle)
    servers.push(server)
    const host = createGitHubHost({ fetch, apiBase: server.url, repo: 'acme/docs', token: 'ghp_wrongWrongWrong' })
    const error = (await host.openOrUpdatePullRequest(input()).catch((e: unknown) => e)) as Error
    expect(error.message).toContain('401')
    expect(error.message).toContain('Bad credentials')
    expect(error.message).not.toContain('ghp_wrongWrongWrong')
  })
})
