import { createHmac } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { WebhookResult } from '../../shared/analytics.ts'
import type { UpdateAutomationInput } from '../../shared/automations.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { createKey } from '../../server/keys/keys.ts'
import { toolStep } from '../agent/support/model-steps.ts'
import { git } from '../support/git-server.ts'
import { automationsApi, demoProject, until } from './support/api.ts'

// Code changes reach automations through signed webhooks only: a delivery with a bad or missing signature is refused
// (401) and leaves no trace; a signed one is recorded once and starts each code automation that lists its repository,
// whose run is given what merged since the last run.

const GH_SECRET = 'gh-webhook-secret-for-tests'
const GL_TOKEN = 'gl-webhook-token-for-tests'
const prompts: string[] = []
/** A model that writes one page and finishes, keeping what it was asked. */
const editor = new MockLanguageModelV4({
  modelId: 'scripted-editor',
  doGenerate: async (options: LanguageModelV4CallOptions) => {
    const done = options.prompt.some((message) => message.role === 'tool')
    if (done) return toolStep(['finish', { summary: 'Document flag exports\n\nA page for the new command.' }])
    prompts.push(JSON.stringify(options.prompt))
    return toolStep(['write_file', { path: 'cli/export.mdx', content: '---\ntitle: Export flags\n---\n\nRun `lumen flags export`.\n' }])
  },
})

let docent: Docent
let dataDir: string
let admin: Record<string, string>
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-code-webhooks-'))
  docent = await createDocent(
    {
      store: { kind: 'memory' },
      agentWorker: { pollMs: 100 },
      automationsWorker: { tickMs: 100 },
      dataDir,
      webhooks: { github: { secret: { env: 'GH_SECRET' } }, gitlab: { token: { env: 'GL_TOKEN' } } },
      projects: [
        demoProject({
          automations: {
            codeRepositories: [
              { repository: 'acme/api', host: 'github' },
              { repository: 'acme/platform/cli', host: 'gitlab' },
            ],
          },
        }),
      ],
    },
    {
      log: consoleLogger('silent'),
      env: { GH_SECRET, GL_TOKEN },
      models: { editor },
    },
  )
  await docent.start()
  admin = { authorization: `Bearer ${(await createKey(docent.context.store, { kind: 'admin', organization: 'demo' })).secret}` }
})
afterAll(async () => {
  await docent?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

const put = (id: string, body: UpdateAutomationInput) => automationsApi(docent.app, admin).configure(id, body)
const runs = (id: string) => automationsApi(docent.app, admin).runs(id)

const merged = (number: number, title: string, body: string) => ({
  action: 'closed',
  repository: { full_name: 'acme/api' },
  pull_request: {
    number,
    merged: true,
    title,
    body,
    labels: [{ name: 'enhancement' }],
    merge_commit_sha: 'a'.repeat(40),
    html_url: `https://github.com/acme/api/pull/${number}`,
    base: { ref: 'main' },
    head: { ref: 'feature' },
  },
})
const deliver = (payload: unknown, signature: (raw: string) => string | undefined) => {
  const raw = JSON.stringify(payload)
  const sig = signature(raw)
  return docent.app.request('/webhooks/github', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', ...(sig ? { 'x-hub-signature-256': sig } : {}) },
    body: raw,
  })
}
const signed = (secret: string) => (raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`

describe('code changes through signed webhooks', () => {
  test('a bad or missing signature is a 401 and stores nothing', async () => {
    await put('update-from-code-changes', { enabled: true, trigger: { kind: 'code', repositories: ['acme/api'] } })
    for (const signature of [signed('not-the-secret'), () => undefined, () => 'sha256=deadbeef']) {
      const response = await deliver(merged(1, 'feat: forged', 'nope'), signature)
      expect(response.status).toBe(401)
      expect((await response.json()).error).toMatch(/X-Hub-Signature-256/)
    }
    // Signed over another body than the one sent.
    const raw = JSON.stringify(merged(1, 'feat: real', 'x'))
    const swapped = await docent.app.request('/webhooks/github', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'pull_request', 'x-hub-signature-256': signed(GH_SECRET)(raw) },
      body: raw.replace('real', 'fake'),
    })
    expect(swapped.status).toBe(401)
    expect(await docent.context.store.listCodeChanges('demo', { after: new Date(0), until: new Date('2100-01-01'), limit: 10 })).toEqual([])
    expect(await runs('update-from-code-changes')).toEqual([])
    expect((await docent.context.store.listJobs('demo', { limit: 10 })).items).toEqual([])
  })

  test('a signed merge starts the code automation once, and its run is given what merged', async () => {
    const response = await deliver(merged(42, 'feat: export flags as JSON', 'Adds `lumen flags export --format json`.'), signed(GH_SECRET))
    expect(response.status).toBe(200)
    expect((await response.json()) as WebhookResult).toMatchObject({ event: 'pull_request', runs: 1 })
    // A redelivery of the same merge: recorded already, nothing more runs.
    expect(
      await (await deliver(merged(42, 'feat: export flags as JSON', 'Adds `lumen flags export --format json`.'), signed(GH_SECRET))).json(),
    ).toMatchObject({
      event: 'pull_request',
      runs: 0,
    })
    // Another repository's merge: not listed, so nothing.
    const other = { ...merged(5, 'feat: other', ''), repository: { full_name: 'acme/web' } }
    expect(await (await deliver(other, signed(GH_SECRET))).json()).toMatchObject({ event: 'pull_request', runs: 0 })

    let list = await runs('update-from-code-changes')
    await until(async () => (list = await runs('update-from-code-changes')).length === 1 && list[0]!.status !== 'active')
    expect(list[0]).toMatchObject({ reason: 'code', status: 'completed', prLink: expect.stringMatching(/\/review\//) })
    expect(prompts).toHaveLength(1)
    expect(prompts[0]).toContain('Pull request #42: feat: export flags as JSON')
    expect(prompts[0]).toContain('lumen flags export --format json')
    expect(prompts[0]).toContain('https://github.com/acme/api/pull/42')
    const job = (await docent.context.store.getJob('demo', list[0]!.jobId))!
    expect(job.model).toBe('scripted-editor')
    expect(await git(join(dataDir, 'git', 'demo.git'), 'show', `${job.branch}:cli/export.mdx`)).toContain('lumen flags export')
  })

  test('GitLab: a merged merge request, with its token, drafts the changelog entry on a code trigger', async () => {
    await put('draft-changelog', { enabled: true, trigger: { kind: 'code', repositories: ['acme/platform/cli'] } })
    const payload = {
      object_kind: 'merge_request',
      project: { path_with_namespace: 'acme/platform/cli', web_url: 'https://gitlab.com/acme/platform/cli' },
      labels: [{ title: 'bug' }],
      object_attributes: {
        iid: 9,
        action: 'merge',
        title: 'Retry webhook deliveries that answer 502',
        description: '',
        merge_commit_sha: 'b'.repeat(40),
        url: 'https://gitlab.com/acme/platform/cli/-/merge_requests/9',
        target_branch: 'main',
        source_branch: 'retry',
      },
    }
    const send = (token?: string) =>
      docent.app.request('/webhooks/gitlab', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-gitlab-event': 'Merge Request Hook',
          ...(token ? { 'x-gitlab-token': token } : {}),
        },
        body: JSON.stringify(payload),
      })
    expect((await send('wrong')).status).toBe(401)
    expect((await send()).status).toBe(401)
    expect(await runs('draft-changelog')).toEqual([])
    expect(await (await send(GL_TOKEN)).json()).toMatchObject({ event: 'Merge Request Hook', runs: 1 })
    let list = await runs('draft-changelog')
    await until(async () => (list = await runs('draft-changelog')).length === 1 && list[0]!.status !== 'active')
    expect(list[0]).toMatchObject({ reason: 'code', status: 'completed' })
    const job = (await docent.context.store.getJob('demo', list[0]!.jobId))!
    expect(job.model).toBe('docent-automations')
    const changelog = await git(join(dataDir, 'git', 'demo.git'), 'show', `${job.branch}:changelog.md`)
    expect(changelog).toContain('### Fixed')
    expect(changelog).toContain('Retry webhook deliveries that answer 502 ([#9](https://gitlab.com/acme/platform/cli/-/merge_requests/9))')
    // Only the repository its trigger lists: the GitHub merge above is another automation's business.
    expect(changelog).not.toContain('export flags')
  })
})
