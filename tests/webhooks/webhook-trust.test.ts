import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WebhookResult } from '../../shared/analytics.ts'
import { bearer, testDocent } from '../support/app.ts'
import { createRepo, type GitServer, startGitServer } from '../support/git-server.ts'

// Who may sign a webhook delivery (from a probe): the server's secret vouches for every repository; a code
// repository's own `webhookSecret` only for that repository's merged pull requests, heard by the project that lists
// it. Before, any configured secret, another organization's included, was accepted for any delivery: it reloaded
// another project's docs, started its content automations and marked its gap fixes merged.

const SECRETS = {
  GIT_TOKEN: 'git-http-password',
  GITHUB_TOKEN: 'ghp_unused',
  SERVER_SECRET: 'the-servers-webhook-secret',
  API_SECRET: 'acme-api-repository-secret',
  BETA_SECRET: 'beta-app-repository-secret',
  GL_SERVER: 'gitlab-server-token',
  GL_CLI: 'gitlab-cli-repository-token',
}

let server: GitServer
let t: Awaited<ReturnType<typeof testDocent>>
/** The docs repository's clone URL: how a push names the repository the docs are served from. */
let docsUrl: string
beforeAll(async () => {
  server = await startGitServer({ password: SECRETS.GIT_TOKEN })
  const repo = await createRepo(server, 'trust-docs', { sourceDir: 'demo/docs' })
  docsUrl = repo.url
  t = await testDocent(
    {
      worker: true,
      // Runs are counted when they start; the worker need not carry them out here.
      agentWorker: { pollMs: 3_600_000 },
      automationsWorker: { tickMs: 3_600_000 },
      webhooks: { github: { secret: { env: 'SERVER_SECRET' } }, gitlab: { token: { env: 'GL_SERVER' } } },
      limits: { bodySeconds: 1 },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { repository: repo.url, ref: 'main', token: { env: 'GIT_TOKEN' } },
          agent: {
            repository: repo.url,
            ref: 'main',
            token: { env: 'GIT_TOKEN' },
            host: { kind: 'github', apiBase: 'http://127.0.0.1:9', repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
          },
          automations: {
            codeRepositories: [
              { repository: 'acme/api', host: 'github', webhookSecret: { env: 'API_SECRET' } },
              { repository: 'acme/cli', host: 'gitlab', webhookSecret: { env: 'GL_CLI' } },
            ],
          },
        },
        {
          id: 'beta',
          organization: 'beta',
          domain: 'beta.example',
          docs: { directory: 'demo/docs' },
          agent: { repository: 'local:beta' },
          automations: { codeRepositories: [{ repository: 'beta/app', host: 'github', webhookSecret: { env: 'BETA_SECRET' } }] },
        },
      ],
    },
    { env: SECRETS },
  )
  await t.docent.start()
  const enable = await t.app.request('/v2/agent/demo/automations/draft-changelog', {
    method: 'PUT',
    headers: { ...bearer(t.keys.admin), 'content-type': 'application/json' },
    body: JSON.stringify({ enabled: true, trigger: { kind: 'code', repositories: [] } }),
  })
  expect(enable.status, await enable.clone().text()).toBe(200)
}, 60_000)
afterAll(async () => {
  await t?.docent.stop()
  await server?.close()
})

const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
const github = async (event: string, payload: unknown, secret: string) => {
  const body = JSON.stringify(payload)
  const response = await t.app.request('/webhooks/github', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': event, 'x-hub-signature-256': sign(secret, body) },
    body,
  })
  return { status: response.status, answer: (await response.json()) as WebhookResult & { error?: string } }
}
const push = (repository: string, after: string) => ({
  ref: 'refs/heads/main',
  after,
  repository: { full_name: repository, ...(repository === 'acme/docs' ? { clone_url: docsUrl } : {}) },
  commits: [],
})
const merged = (repository: string, number: number) => ({
  action: 'closed',
  repository: { full_name: repository },
  pull_request: {
    number,
    merged: true,
    merge_commit_sha: 'a'.repeat(40),
    title: `PR ${number}`,
    head: { ref: 'x' },
    base: { ref: 'main' },
  },
})

describe('who may sign a webhook delivery', () => {
  test('a code repository’s secret, this organization’s or another’s, does not vouch for the docs repository', async () => {
    for (const secret of [SECRETS.API_SECRET, SECRETS.BETA_SECRET]) {
      const pushed = await github('push', push('acme/docs', '4'.repeat(40)), secret)
      expect(pushed.status).toBe(401)
      expect(pushed.answer.error).toMatch(/vouches only for that repository/)
      const pull = await github('pull_request', merged('acme/docs', 102), secret)
      expect(pull.status).toBe(401)
    }
    expect((await t.store.listJobs('demo', { limit: 10 })).items).toEqual([])
    // The server's secret does: the docs reload, the merge reaches the gap loop.
    expect(await github('push', push('acme/docs', '5'.repeat(40)), SECRETS.SERVER_SECRET)).toMatchObject({
      status: 200,
      answer: { actions: ['demo: docs reload'] },
    })
    expect(await github('pull_request', merged('acme/docs', 103), SECRETS.SERVER_SECRET)).toMatchObject({
      status: 200,
      answer: { actions: ['demo: pull request 103 merged'] },
    })
  })

  test('another organization’s code repository secret starts nothing here; the repository’s own starts its project’s run', async () => {
    const forged = await github('pull_request', merged('acme/api', 7), SECRETS.BETA_SECRET)
    expect(forged.status).toBe(401)
    expect((await t.store.listJobs('demo', { limit: 10 })).items).toEqual([])
    expect(await github('pull_request', merged('acme/api', 8), SECRETS.API_SECRET)).toMatchObject({
      status: 200,
      answer: { event: 'pull_request', actions: [], runs: 1 },
    })
    // Its own repository's other events are heard, and do nothing: only merges are code changes.
    expect(await github('push', push('acme/api', '6'.repeat(40)), SECRETS.API_SECRET)).toMatchObject({
      status: 200,
      answer: { actions: [], runs: 0 },
    })
  })

  test('GitLab: a code repository’s token vouches for its own merge requests only', async () => {
    const mergeRequest = (path: string, iid: number) =>
      JSON.stringify({
        object_kind: 'merge_request',
        project: { path_with_namespace: path },
        object_attributes: { iid, action: 'merge', title: 'x', merge_commit_sha: 'b'.repeat(40), target_branch: 'main' },
      })
    const send = (body: string, token: string) =>
      t.app.request('/webhooks/gitlab', { method: 'POST', headers: { 'content-type': 'application/json', 'x-gitlab-token': token }, body })
    expect((await send(mergeRequest('acme/docs', 4), SECRETS.GL_CLI)).status).toBe(401)
    expect((await send(mergeRequest('acme/cli', 5), SECRETS.GL_CLI)).status).toBe(200)
  })

  test('a delivery larger than the API’s 1 MiB is read (GitHub sends up to 25 MB); larger still is a 413', async () => {
    const commits = Array.from({ length: 40 }, (_, i) => ({ id: `${i}`.padStart(40, 'c'), message: 'm', added: ['x'.repeat(50_000)] }))
    const big = await github('push', { ...push('beta/app', '7'.repeat(40)), commits }, SECRETS.SERVER_SECRET)
    expect(big.status).toBe(200)
    const huge = 'x'.repeat(26 * 1024 * 1024)
    const refused = await t.app.request('/webhooks/github', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': sign(SECRETS.SERVER_SECRET, huge) },
      body: huge,
    })
    expect(refused.status).toBe(413)
    // A body that never finishes arriving: the JSON 408 of every request, after the server's body time.
    const trickle = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) })
    const slow = await t.app.request('/webhooks/github', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': '100',
        'x-github-event': 'push',
        'x-hub-signature-256': sign('x', '{'),
      },
      body: trickle,
      duplex: 'half',
    } as RequestInit)
    expect(slow.status).toBe(408)
    expect(await slow.json()).toEqual({ error: 'the request body did not arrive within 1 s', code: 'request_timeout' })
    expect(((await refused.json()) as { error: string }).error).toMatch(/at most 26214400 bytes/)
  })
})
