import { createHmac } from 'node:crypto'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { UpdateAutomationInput } from '../../shared/automations.ts'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { startApiServer } from '../agent-git/support/api-server.ts'
import { startGitHubPulls } from '../agent/support/github-pulls.ts'
import { createRepo, type GitServer, git, startGitServer } from '../support/git-server.ts'
import { automationsApi, until } from './support/api.ts'

// The same automations on GitHub: the docs in a real git server (git http-backend), pull requests through a scripted
// GitHub pulls API, pushes reported by signed webhooks. A maintenance automation's second run merges the moved base
// into its branch over HTTP and appends to its one pull request; `direct` mode pushes to the default branch itself;
// Slack hears of both.

const TOKEN = 'ghp_automations_test_token'
const SECRET = 'webhook-secret'
let gitServer: GitServer
let github: Awaited<ReturnType<typeof startGitHubPulls>>
let slack: Awaited<ReturnType<typeof startApiServer>>
let repo: Awaited<ReturnType<typeof createRepo>>
let docent: Docent
let dataDir: string
let admin: Record<string, string>

beforeAll(async () => {
  gitServer = await startGitServer()
  github = await startGitHubPulls(TOKEN)
  slack = await startApiServer(() => ({ status: 200, body: 'ok' }))
  repo = await createRepo(gitServer, 'docs', { sourceDir: 'demo/docs' })
  dataDir = await mkdtemp(join(tmpdir(), 'docent-automations-github-'))
  docent = await createDocent(
    {
      store: { kind: 'memory' },
      agentWorker: { pollMs: 100 },
      dataDir,
      webhooks: { github: { secret: { env: 'GH_SECRET' } } },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          name: 'Lumen docs',
          docs: { repository: repo.url, ref: 'main' },
          agent: {
            repository: repo.url,
            ref: 'main',
            host: { kind: 'github', apiBase: github.url, repo: 'acme/docs', token: { env: 'GITHUB_TOKEN' } },
          },
          automations: { notifications: [{ kind: 'slack', url: { env: 'SLACK_URL' } }] },
        },
      ],
    },
    {
      log: consoleLogger('silent'),
      env: { GITHUB_TOKEN: TOKEN, GH_SECRET: SECRET, SLACK_URL: `${slack.url}/services/T0/B0/x` },
    },
  )
  await docent.start()
  admin = { authorization: `Bearer ${(await createKey(docent.context.store, { kind: 'admin', organization: 'demo' })).secret}` }
})
afterAll(async () => {
  await docent?.stop()
  await Promise.all([gitServer?.close(), github?.close(), slack?.close()])
  await rm(dataDir, { recursive: true, force: true })
  if (repo) await rm(repo.work, { recursive: true, force: true })
})

const api = () => automationsApi(docent.app, admin)
const configure = (id: string, body: UpdateAutomationInput) => api().configure(id, body)
const runs = (id: string) => api().runs(id)
const settled = (id: string, count: number) => api().settled(id, count)

/** Commits to the docs repository with git, then tells Docent as GitHub would: a signed push delivery. */
async function push(path: string, change: (text: string) => string, message: string) {
  await git(repo.work, 'pull', '-q', '--ff-only', 'origin', 'main')
  const before = (await git(repo.work, 'rev-parse', 'HEAD')).trim()
  await writeFile(join(repo.work, path), change(await readFile(join(repo.work, path), 'utf8')))
  await git(repo.work, 'commit', '-q', '-am', message)
  await git(repo.work, 'push', '-q', 'origin', 'HEAD:main')
  const after = (await git(repo.work, 'rev-parse', 'HEAD')).trim()
  return deliverPush(before, after, message, path)
}

/** GitHub's push delivery for a move of main, signed with the webhook's secret. */
async function deliverPush(before: string, after: string, message: string, path: string) {
  const body = JSON.stringify({
    ref: 'refs/heads/main',
    before,
    after,
    repository: { full_name: 'acme/docs' },
    commits: [
      {
        id: after,
        message,
        url: `https://github.com/acme/docs/commit/${after}`,
        author: { name: 'Ada', email: 'ada@acme.test' },
        modified: [path],
      },
    ],
  })
  const response = await docent.app.request('/webhooks/github', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
    body,
  })
  expect(response.status).toBe(200)
  return response.json()
}
const notices = () => slack.requests.map((request) => request.body as { text: string; blocks: unknown[] })
const show = (branch: string, path: string) => git(join(gitServer.root, 'docs.git'), 'show', `${branch}:${path}`)

describe('automations on GitHub', () => {
  test('a push webhook starts fix-broken-links; a later push joins the same pull request, the base merged into its branch', async () => {
    await configure('fix-broken-links', { enabled: true })
    expect(
      await push('guides/webhooks.mdx', (text) => `${text}\nRead [cleaning up flags](/guide/flag-clean-up).\n`, 'Link the cleanup guide'),
    ).toMatchObject({
      event: 'push',
      runs: 1,
    })
    const [first] = await settled('fix-broken-links', 1)
    expect(first).toMatchObject({ reason: 'content', status: 'completed', prLink: 'https://github.example/acme/docs/pull/1' })
    expect(github.pulls).toHaveLength(1)
    const branch = github.pulls[0]!.head
    expect(await show(branch, 'guides/webhooks.mdx')).toContain('[cleaning up flags](/guides/flag-cleanup)')
    await until(() => notices().some((notice) => notice.text.includes('opened a pull request')), 'the pr_opened notice')
    expect(notices()[0]!.text).toBe(
      'Fix broken links (Lumen docs) opened a pull request: Fix 1 broken link https://github.example/acme/docs/pull/1',
    )

    await push('sdks/go.mdx', (text) => `${text}\nSee the [Python SDK](/sdk/pyhton).\n`, 'Point Go readers at Python')
    const [second] = await settled('fix-broken-links', 2)
    expect(second).toMatchObject({ status: 'completed', jobId: first!.jobId, prLink: first!.prLink })
    expect(github.pulls).toHaveLength(1)
    expect(github.created()).toBe(1)
    // The branch has the base's second push (merged in) and both fixes.
    expect(await show(branch, 'sdks/go.mdx')).toContain('See the [Python SDK](/sdks/python).')
    expect(await show(branch, 'guides/webhooks.mdx')).toContain('(/guides/flag-cleanup)')
    const parents = (await git(join(gitServer.root, 'docs.git'), 'log', '--format=%P', '-n', '2', branch)).trim().split('\n')
    expect(parents.some((line) => line.split(' ').length === 2)).toBe(true)
    expect(github.pulls[0]!.body).toContain(`Run ${second!.id}`)
    // One pr_opened notice: appending to the pull request is not opening one.
    expect(notices().filter((notice) => notice.text.includes('opened a pull request'))).toHaveLength(1)
  })

  test('direct mode pushes the fix to the default branch, opens no pull request, and says it merged', async () => {
    await configure('fix-typos', { enabled: true, mode: 'direct' })
    await push('quickstart.mdx', (text) => `${text}\nThe dashbord shows every chnage.\n`, 'Mention the dashboard')
    // The scheduler's pass while the push's docs reload is under way reads the revision before the push: not a move.
    await docent.automations.tick()
    const [run, ...others] = await settled('fix-typos', 1)
    expect(others).toEqual([])
    // A failed run says why in its note: show it when this fails.
    expect(run, run?.note ?? undefined).toMatchObject({ status: 'completed', prLink: null })
    expect(run!.note).toMatch(/Merged into main as [0-9a-f]{12} \(direct mode\)\.$/)
    expect(await show('main', 'quickstart.mdx')).toContain('The dashboard shows every change.')
    expect(github.created()).toBe(1)
    await until(() => notices().some((notice) => notice.text.includes('merged its changes')), 'the run_merged notice')
    const merged = notices().find((notice) => notice.text.includes('merged its changes'))!
    expect(merged.text).toMatch(/^Fix typos \(Lumen docs\) merged its changes \([0-9a-f]{12}\)$/)
    // GitHub reports that push too: fix-broken-links looks and finds nothing; fix-typos does not run on its own commit.
    await settled('fix-broken-links', 3)
    const [before, after] = (await git(join(gitServer.root, 'docs.git'), 'log', '--format=%H', '-n', '2', 'main'))
      .trim()
      .split('\n')
      .reverse()
    const message = await git(join(gitServer.root, 'docs.git'), 'log', '--format=%B', '-n', '1', 'main')
    expect(message).toContain('Docent-Automation: fix-typos')
    expect(await deliverPush(before!, after!, message, 'quickstart.mdx')).toMatchObject({ event: 'push', runs: 1 })
    const links = await settled('fix-broken-links', 4)
    expect(links[0]).toMatchObject({ status: 'completed', prLink: null })
    expect(await runs('fix-typos')).toHaveLength(1)
  })
})
