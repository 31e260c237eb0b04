import { createHmac } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { AutomationWebhookBody } from '../../shared/automations.ts'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { startApiServer } from '../agent-git/support/api-server.ts'
import { git } from '../support/git-server.ts'
import { automationsApi, demoProject, until } from './support/api.ts'

// Notices on a generic JSON webhook (signed): a pull request opened, one waiting for review past the project's
// reminder period (again each period, once across passes), merged, and a failed run. The clock is the context's.

const HOOK_SECRET = 'notify-secret'
let clock = new Date('2026-04-01T10:00:00Z')
let hook: Awaited<ReturnType<typeof startApiServer>>
let docent: Docent
let dataDir: string
let admin: Record<string, string>

beforeAll(async () => {
  hook = await startApiServer(() => ({ status: 204, body: '' }))
  dataDir = await mkdtemp(join(tmpdir(), 'docent-notify-'))
  docent = await createDocent(
    {
      store: { kind: 'memory' },
      agentWorker: { pollMs: 100 },
      automationsWorker: { tickMs: 3_600_000 },
      dataDir,
      projects: [
        demoProject({
          automations: {
            reviewReminderDays: 3,
            notifications: [{ kind: 'webhook', url: { env: 'HOOK_URL' }, secret: { env: 'HOOK_SECRET' } }],
          },
        }),
      ],
    },
    {
      log: consoleLogger('silent'),
      now: () => clock,
      // The scheduler's timer is slow here: what happens comes from the local host's own push, or from explicit passes.
      env: { HOOK_URL: `${hook.url}/hooks/docs`, HOOK_SECRET },
    },
  )
  await docent.start()
  admin = { authorization: `Bearer ${(await createKey(docent.context.store, { kind: 'admin', organization: 'demo' })).secret}` }
})
afterAll(async () => {
  await docent?.stop()
  await hook?.close()
  await rm(dataDir, { recursive: true, force: true })
})

const received = () =>
  hook.requests.map((request) => {
    const body = request.body as AutomationWebhookBody
    expect(AutomationWebhookBody.parse(body)).toEqual(body)
    const raw = JSON.stringify(body)
    expect(request.headers['x-docent-signature-256']).toBe(`sha256=${createHmac('sha256', HOOK_SECRET).update(raw).digest('hex')}`)
    return body
  })
const runs = (id: string) => automationsApi(docent.app, admin).runs(id)

describe('notifications', () => {
  test('a pull request opened, then reminders while it waits for review, then merged', async () => {
    await automationsApi(docent.app, admin).configure('fix-broken-links', { enabled: true })
    // A push Docent makes itself to the local repository's main: the local host hears it, no poll needed.
    const workspace = await docent.context.agentGit.workspaces.open({ repository: 'local:demo', ref: 'main' })
    await workspace.writeFile('quickstart.mdx', `${await workspace.readFile('quickstart.mdx')}\nNext: [targeting](/concept/targetting).\n`)
    await workspace.commit({ message: 'Link targeting', author: { name: 'Writer', email: 'writer@acme.test' } })
    await workspace.push('main')
    let list = await runs('fix-broken-links')
    await until(async () => (list = await runs('fix-broken-links')).length === 1 && list[0]!.status === 'completed', 'the run')
    const prLink = list[0]!.prLink!
    await until(() => received().some((body) => body.type === 'pr_opened'), 'the pr_opened notice')
    const opened = received().find((body) => body.type === 'pr_opened')!
    expect(opened).toMatchObject({
      event: 'automation.pr_opened',
      type: 'pr_opened',
      project: { id: 'demo' },
      automation: { id: 'fix-broken-links', name: 'Fix broken links' },
      run: { id: list[0]!.id, reason: 'content', jobId: list[0]!.jobId },
      pullRequest: { url: prLink, title: 'Fix 1 broken link' },
    })
    expect(hook.requests[0]!.headers['x-docent-event']).toBe('automation.pr_opened')

    // Two days: not yet. Four: a reminder, once however many passes. Seven: the next period's reminder.
    clock = new Date('2026-04-03T10:00:00Z')
    await docent.automations.checkPullRequests()
    clock = new Date('2026-04-05T10:00:00Z')
    await Promise.all([docent.automations.checkPullRequests(), docent.automations.checkPullRequests()])
    await docent.automations.checkPullRequests()
    clock = new Date('2026-04-08T11:00:00Z')
    await docent.automations.checkPullRequests()
    await docent.automations.notifier.settled()
    expect(
      received()
        .filter((body) => body.type === 'pr_waiting')
        .map((body) => (body as { days: number }).days),
    ).toEqual([4, 7])
    expect(received().find((body) => body.type === 'pr_waiting')!.text).toBe(
      `Fix broken links (demo): a pull request has waited for review for 4 days: ${prLink}`,
    )

    // Merged (main fast-forwarded to the branch): announced once, and no more reminders.
    const bare = join(dataDir, 'git', 'demo.git')
    const branch = (await docent.context.store.getJob('demo', list[0]!.jobId))!.branch!
    await git(bare, 'update-ref', 'refs/heads/main', (await git(bare, 'rev-parse', branch)).trim())
    clock = new Date('2026-04-12T11:00:00Z')
    await docent.automations.checkPullRequests()
    await docent.automations.checkPullRequests()
    await docent.automations.notifier.settled()
    expect(received().filter((body) => body.type === 'run_merged')).toMatchObject([{ pullRequest: { url: prLink } }])
    expect(received().filter((body) => body.type === 'pr_waiting')).toHaveLength(2)
  })

  test('a failed run', async () => {
    const created = await docent.app.request('/v2/agent/demo/automations', {
      method: 'POST',
      headers: { ...admin, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Limits section',
        prompt: 'Append a section "Limits" to guides/nowhere.mdx with the text "At most 100."',
        trigger: { kind: 'schedule', cron: '0 9 * * *' },
      }),
    })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as { id: string }
    const triggered = await docent.app.request(`/workflow/demo/${id}/trigger`, { method: 'POST', headers: admin })
    expect(triggered.status).toBe(202)
    let list = await runs(id)
    await until(async () => (list = await runs(id)).length === 1 && list[0]!.status !== 'active', 'the run')
    expect(list[0]).toMatchObject({ status: 'failed', prLink: null, note: expect.stringMatching(/could not be carried out/) })
    await until(() => received().some((body) => body.type === 'run_failed'), 'the run_failed notice')
    expect(received().find((body) => body.type === 'run_failed')).toMatchObject({
      automation: { id, name: 'Limits section' },
      run: { id: list[0]!.id, reason: 'manual' },
      error: list[0]!.note,
    })
  })
})
