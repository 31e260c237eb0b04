import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { type Gap, type GapList, WebhookResult } from '../../shared/analytics.ts'
import { serveApp } from '../assistant/support.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { createRepo, type GitServer, git, startGitServer } from '../support/git-server.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { startScriptedGitLab } from './scripted-hosts.ts'
import { ask, eventually } from './support.ts'

// Done when (2), on GitHub and GitLab: the fix's pull request is merged on the host (a real merge pushed to a real
// `git http-backend`), a signed webhook tells Docent, the served docs reach the merge, and the gap turns fixed. A
// periodic poll of the pull request finds a merge whose webhook never came.

const SECRETS = {
  GIT_TOKEN: 'git-http-password',
  GITHUB_TOKEN: 'ghp_scripted_token',
  GITLAB_TOKEN: 'glpat-scripted-token',
  GH_HOOK_SECRET: 'github-webhook-secret',
  GL_HOOK_TOKEN: 'gitlab-webhook-token',
}
const helm = [
  'How do I deploy the relay proxy on Kubernetes with Helm?',
  'Is there a Helm chart for running the relay proxy in Kubernetes?',
  'kubernetes helm install relay proxy',
]
const helmFacts =
  'Install the relay proxy with the official Helm chart: run `helm repo add lumen https://charts.lumen.test`, then `helm install relay lumen/relay-proxy --set sdkKey=$LUMEN_SDK_KEY`.'

let server: GitServer
beforeAll(async () => {
  server = await startGitServer({ password: SECRETS.GIT_TOKEN })
})
afterAll(() => server?.close())

type Host =
  | { kind: 'github'; api: Awaited<ReturnType<typeof startGitHubPulls>> }
  | { kind: 'gitlab'; api: Awaited<ReturnType<typeof startScriptedGitLab>> }

/** A project whose docs are served from the repository its agent pushes to, on a scripted GitHub or GitLab. */
async function setup(name: string, host: Host) {
  const repo = await createRepo(server, name, { sourceDir: 'demo/docs' })
  const agentHost =
    host.kind === 'github'
      ? { kind: 'github' as const, apiBase: host.api.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } }
      : { kind: 'gitlab' as const, apiBase: host.api.url, project: 'acme/docs', token: { env: 'GITLAB_TOKEN' } }
  const t = await testDocent(
    {
      worker: true,
      // Fast polls: the test follows a gap's fix from job to merge.
      agentWorker: { pollMs: 100 },
      gapPollMs: 100,
      webhooks: { github: { secret: { env: 'GH_HOOK_SECRET' } }, gitlab: { token: { env: 'GL_HOOK_TOKEN' } } },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { repository: repo.url, ref: 'main', token: { env: 'GIT_TOKEN' } },
          allowedOrigins: ['*'],
          agent: { repository: repo.url, ref: 'main', token: { env: 'GIT_TOKEN' }, host: agentHost },
        },
        { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' } },
      ],
    },
    { env: SECRETS },
  )
  await t.docent.start()
  const http = await serveApp(t.app)
  const admin = bearer(t.keys.admin)
  const get = async <T>(path: string) => (await (await t.app.request(path, { headers: admin })).json()) as T
  return {
    ...t,
    repo,
    url: http.url,
    gaps: async () => (await get<GapList>('/v1/analytics/demo/gaps')).gaps,
    gap: (id: string) => get<Gap>(`/v1/analytics/demo/gaps/${id}`),
    job: (id: string) => get<AgentJob>(`/v2/agent/demo/job/${id}`),
    fix: async (gapId: string, text: string) =>
      (await (await t.app.request(`/v1/analytics/demo/gaps/${gapId}/fix`, json({ text }, admin))).json()) as AgentJob,
    /** Merges the branch into main in the repository (what the host does when someone presses Merge); the new head. */
    async mergeOnHost(branch: string): Promise<string> {
      await git(repo.work, 'fetch', '-q', 'origin', branch)
      await git(repo.work, 'merge', '-q', '--no-ff', '-m', `Merge ${branch}`, 'FETCH_HEAD')
      await git(repo.work, 'push', '-q', 'origin', 'main')
      return (await git(repo.work, 'rev-parse', 'HEAD')).trim()
    },
    async stop() {
      await http.close()
      await t.docent.stop()
    },
  }
}

async function gapOfQuestions(t: Awaited<ReturnType<typeof setup>>, questions: string[]) {
  for (const question of questions)
    expect((await ask(t.url, t.keys.assistant, question, { origin: 'https://docs.example.com' })).resolution).toBe('unanswered')
  const gaps = await t.gaps()
  return gaps.find((gap) => gap.title === questions[0])!
}

async function fixToPullRequest(t: Awaited<ReturnType<typeof setup>>, gap: Gap, text: string) {
  const job = await t.fix(gap.id, text)
  const done = await eventually(
    () => t.job(job.id),
    (j) => j.status !== 'active',
    'the fix job',
  )
  expect(done).toMatchObject({ status: 'completed', error: null })
  expect(
    await eventually(
      () => t.gap(gap.id),
      (g) => g.status === 'pr_open',
      'the gap with a pull request',
    ),
  ).toMatchObject({ prLink: done.prLink })
  return (await t.docent.context.store.getJob('demo', job.id))!
}

const signGitHub = (body: string) => `sha256=${createHmac('sha256', SECRETS.GH_HOOK_SECRET).update(body).digest('hex')}`

describe('GitHub', () => {
  test('a signed pull_request webhook of the merge: the docs reload and the gap is fixed; a poll finds a merge with no webhook', async () => {
    const github = await startGitHubPulls(SECRETS.GITHUB_TOKEN)
    const t = await setup('docs-github', { kind: 'github', api: github })
    try {
      const gap = await gapOfQuestions(t, helm)
      expect(gap.count).toBe(3)
      const job = await fixToPullRequest(t, gap, helmFacts)
      expect(github.pulls).toHaveLength(1)
      expect(github.pulls[0]).toMatchObject({ head: job.branch, base: 'main' })
      // Merging is the host's business here.
      const local = await t.app.request(`/v2/agent/demo/job/${job.id}/merge`, { method: 'POST', headers: bearer(t.keys.admin) })
      expect(local.status).toBe(409)
      expect(((await local.json()) as { error: string }).error).toMatch(/on GitHub: merge them there/)

      const commit = await t.mergeOnHost(job.branch!)
      Object.assign(github.pulls[0]!, { state: 'merged', mergeCommit: commit })
      const payload = JSON.stringify({
        action: 'closed',
        number: 1,
        pull_request: { number: 1, merged: true, merge_commit_sha: commit, head: { ref: job.branch }, base: { ref: 'main' } },
        repository: { full_name: 'acme/docs', clone_url: t.repo.url },
      })
      const send = (headers: Record<string, string>) =>
        fetch(`${t.url}/webhooks/github`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', ...headers },
          body: payload,
        })
      expect((await send({})).status).toBe(401)
      expect((await send({ 'x-hub-signature-256': signGitHub(`${payload} `) })).status).toBe(401)
      const delivered = await send({ 'x-hub-signature-256': signGitHub(payload) })
      expect(delivered.status).toBe(200)
      expect(WebhookResult.parse(await delivered.json())).toEqual({
        event: 'pull_request',
        actions: ['demo: pull request 1 merged; 1 gap(s) to verify'],
        runs: 0,
      })

      const fixed = await eventually(
        () => t.gap(gap.id),
        (g) => g.status === 'fixed' || g.status === 'open',
        'the gap after the webhook',
      )
      expect(fixed).toMatchObject({ status: 'fixed', reason: null })
      expect((await t.docent.context.search.corpus('demo')).revision).toBe(commit)
      const again = await ask(t.url, t.keys.assistant, helm[0]!)
      expect(again.resolution).toBe('answered')
      expect(again.text).toContain('helm install relay lumen/relay-proxy')

      // The second fix is merged on GitHub, and its webhook is lost: the poll of the pull request finds it.
      const ruby = await gapOfQuestions(t, ['Is there a Ruby SDK?'])
      const rubyJob = await fixToPullRequest(
        t,
        ruby,
        'Lumen has a Ruby SDK: install it with `gem install lumen-flags`, then create a client with your server-side SDK key.',
      )
      const rubyCommit = await t.mergeOnHost(rubyJob.branch!)
      Object.assign(github.pulls[1]!, { state: 'merged', mergeCommit: rubyCommit })
      await t.docent.context.analytics.gaps.advance('demo', { poll: 'now' })
      expect(github.requests.some((r) => r.method === 'GET' && r.path === '/repos/acme/docs/pulls/2')).toBe(true)
      expect(
        await eventually(
          () => t.gap(ruby.id),
          (g) => g.status === 'fixed' || g.status === 'open',
          'the polled gap',
        ),
      ).toMatchObject({
        status: 'fixed',
      })

      // A merge the host contradicts (a forged or mistaken delivery, signed all the same): while the docs have not
      // reached it, the host's word wins and the gap waits for its pull request again.
      const terraform = await gapOfQuestions(t, ['Is there a Terraform provider for Lumen?'])
      const terraformJob = await fixToPullRequest(t, terraform, 'Lumen has a Terraform provider: `lumen/lumen` on the Terraform registry.')
      const forged = JSON.stringify({
        action: 'closed',
        pull_request: {
          number: 3,
          merged: true,
          merge_commit_sha: '9'.repeat(40),
          head: { ref: terraformJob.branch },
          base: { ref: 'main' },
        },
        repository: { full_name: 'acme/docs', clone_url: t.repo.url },
      })
      const claimed = await fetch(`${t.url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-hub-signature-256': signGitHub(forged) },
        body: forged,
      })
      expect(await claimed.json()).toMatchObject({ actions: ['demo: pull request 3 merged; 1 gap(s) to verify'] })
      expect((await t.gap(terraform.id)).status).toBe('merged')
      expect(github.pulls[2]!.state ?? 'open').toBe('open')
      await t.docent.context.analytics.gaps.advance('demo', { poll: 'now' })
      expect(await t.gap(terraform.id)).toMatchObject({ status: 'pr_open' })

      // A push to the served branch reloads the docs; other events are acknowledged and ignored.
      const push = JSON.stringify({
        ref: 'refs/heads/main',
        after: rubyCommit,
        repository: { full_name: 'acme/docs', clone_url: t.repo.url },
      })
      const pushed = await fetch(`${t.url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signGitHub(push) },
        body: push,
      })
      expect(await pushed.json()).toEqual({ event: 'push', actions: ['demo: docs reload'], runs: 0 })
      const ping = '{"zen":"Keep it logically awesome."}'
      const pinged = await fetch(`${t.url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-hub-signature-256': signGitHub(ping) },
        body: ping,
      })
      expect(await pinged.json()).toEqual({ event: 'ping', actions: [], runs: 0 })
      const notJson = 'not json'
      expect(
        (
          await fetch(`${t.url}/webhooks/github`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signGitHub(notJson) },
            body: notJson,
          })
        ).status,
      ).toBe(400)
    } finally {
      await t.stop()
      await github.close()
    }
  })

  test('a pull request closed without merging opens its gap again, with the reason', async () => {
    const github = await startGitHubPulls(SECRETS.GITHUB_TOKEN)
    const t = await setup('docs-github-closed', { kind: 'github', api: github })
    try {
      const gap = await gapOfQuestions(t, helm.slice(0, 1))
      const job = await fixToPullRequest(t, gap, helmFacts)
      const payload = JSON.stringify({
        action: 'closed',
        pull_request: { number: 1, merged: false, head: { ref: job.branch }, base: { ref: 'main' } },
        repository: { full_name: 'Acme/Docs' },
      })
      const closed = await fetch(`${t.url}/webhooks/github`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-hub-signature-256': signGitHub(payload) },
        body: payload,
      })
      expect(await closed.json()).toEqual({ event: 'pull_request', actions: ['demo: pull request 1 closed; 1 gap(s) open again'], runs: 0 })
      expect(await t.gap(gap.id)).toMatchObject({ status: 'open', reason: 'the pull request was closed without merging' })
    } finally {
      await t.stop()
      await github.close()
    }
  })
})

describe('GitLab', () => {
  test('a merge request hook with the secret token: the gap is fixed', async () => {
    const gitlab = await startScriptedGitLab(SECRETS.GITLAB_TOKEN)
    const t = await setup('docs-gitlab', { kind: 'gitlab', api: gitlab })
    try {
      const gap = await gapOfQuestions(t, helm)
      const job = await fixToPullRequest(t, gap, helmFacts)
      expect(gitlab.requests[0]).toMatchObject({ head: job.branch, base: 'main', state: 'open' })
      const commit = await t.mergeOnHost(job.branch!)
      const payload = JSON.stringify({
        object_kind: 'merge_request',
        project: { id: 42, path_with_namespace: 'acme/docs', git_http_url: t.repo.url },
        object_attributes: {
          iid: 1,
          action: 'merge',
          state: 'merged',
          merge_commit_sha: commit,
          source_branch: job.branch,
          target_branch: 'main',
        },
      })
      const send = (token?: string) =>
        fetch(`${t.url}/webhooks/gitlab`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-gitlab-event': 'Merge Request Hook',
            ...(token ? { 'x-gitlab-token': token } : {}),
          },
          body: payload,
        })
      expect((await send()).status).toBe(401)
      expect((await send('wrong')).status).toBe(401)
      const delivered = await send(SECRETS.GL_HOOK_TOKEN)
      expect(await delivered.json()).toEqual({
        event: 'Merge Request Hook',
        actions: ['demo: pull request 1 merged; 1 gap(s) to verify'],
        runs: 0,
      })
      expect(
        await eventually(
          () => t.gap(gap.id),
          (g) => g.status === 'fixed' || g.status === 'open',
          'the gap after the hook',
        ),
      ).toMatchObject({
        status: 'fixed',
      })
      expect((await t.docent.context.search.corpus('demo')).revision).toBe(commit)
    } finally {
      await t.stop()
      await gitlab.close()
    }
  })
})
