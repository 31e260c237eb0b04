import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import type { AgentJob } from '../../shared/agent.ts'
import { SIGN_IN_PER_IP_PER_HOUR } from '../../server/console/session-routes.ts'
import { createKey } from '../../server/keys/keys.ts'
import { seriousViolations } from './axe.ts'
import { serveAnalyticsFixture } from './console-fixtures.ts'
import { browserSkipReason, ensureWidgetBuilt, launchBrowser, type RunningDocent, startDocent } from './support.ts'

// The console in real Chromium against a real Docent: sign-in with the admin key, keys shown once and revoked, a read
// key that sees and cannot change, sign-out, a job's events live, a session that ends under a half-typed form, axe-core
// on every screen in light and dark. Analytics screens read contract-shaped fixture data (console-fixtures.ts) until
// the analytics API lands; the end-to-end gap loop at the bottom runs once it has.

const skip = browserSkipReason()
const SCREENS = ['overview', 'conversations', 'searches', 'feedback', 'gaps', 'agent', 'automations', 'keys', 'project']

async function start(dataDir: string, { docsFromRepository = false } = {}): Promise<RunningDocent> {
  return startDocent({
    dataDir,
    // The worker starts only when a test calls docent.start(): the live-events test opens the view first.
    worker: true,
    projects: [
      {
        id: 'demo',
        organization: 'demo',
        domain: 'demo',
        name: 'Demo docs',
        // Public, as the demo's are: the site's pages (with the widget) are served only for public docs.
        // The gap loop needs the docs the agent pushes to, as the demo serves them, so a merge reaches the answers.
        docs: docsFromRepository
          ? { repository: 'local:demo', ref: 'main', seed: 'demo/docs', refreshSeconds: 10, public: true }
          : { directory: 'demo/docs', public: true },
        allowedOrigins: ['*'],
        agent: { repository: 'local:demo' },
      },
      { id: 'handbook', organization: 'demo', domain: 'handbook.example', name: 'Handbook', docs: { directory: 'demo/docs' } },
      { id: 'acme-docs', organization: 'acme', domain: 'acme.example', name: 'Acme docs', docs: { directory: 'demo/docs' } },
    ],
  })
}

describe.skipIf(skip)('the console in Chromium', () => {
  let browser: Browser
  let server: RunningDocent
  let dataDir: string
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docent-console-browser-'))
    await Promise.all([buildConsoleIfStale(), ensureWidgetBuilt()])
    ;[browser, server] = await Promise.all([launchBrowser(), start(dataDir)])
  }, 180_000)
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function open(options: { colorScheme?: 'light' | 'dark'; fixture?: boolean } = {}) {
    // bypassCSP: axe-core is injected as an inline script, which the console's policy (rightly) refuses.
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      colorScheme: options.colorScheme ?? 'light',
      bypassCSP: true,
    })
    contexts.push(context)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const fixture = options.fixture === false ? null : await serveAnalyticsFixture(page)
    return { context, page, errors, fixture }
  }

  async function signIn(page: Page, key = server.adminKey, path = '/console') {
    await page.goto(`${server.url}${path}`)
    await page.getByLabel('Admin key').fill(key)
    await page.getByRole('button', { name: 'Sign in' }).click()
    // The sign-in form gone first: a heading of the screen being drawn may show before the session cookie is set.
    await page.getByLabel('Admin key').waitFor({ state: 'detached' })
    await page.locator('main h1').first().waitFor()
  }

  const sessionHash = async (context: BrowserContext) => {
    const cookie = (await context.cookies()).find((c) => c.name === 'docent_session')!
    return { cookie, hash: createHash('sha256').update(cookie.value).digest('hex') }
  }

  test('sign in with the admin key: an HttpOnly cookie, the key nowhere in the browser, the overview with its figures', async () => {
    const { context, page, errors } = await open()
    await page.goto(`${server.url}/console/demo/overview`)
    // waitFor, not isVisible: the app renders after its module loads, later on a busy machine.
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor()
    // The card sits in the middle of the window (it stood 355 px left of it on laptops and wider).
    const card = (await page.locator('.signin').boundingBox())!
    expect(Math.abs(card.x + card.width / 2 - 640)).toBeLessThan(2)
    await signIn(page, server.adminKey, '/console/demo/overview')
    await page.getByRole('heading', { name: 'Questions per day' }).waitFor()
    expect(await page.locator('main h1').textContent()).toBe('Overview')
    const { cookie } = await sessionHash(context)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' })
    expect(await page.evaluate(() => document.cookie)).toBe('')
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
    expect(stored).not.toContain(server.adminKey)
    expect(await page.locator('input[name=key]').count()).toBe(0)
    // KPIs from the fixture: conversations, answered share, satisfaction, open gaps; the chart drew on a canvas.
    const kpis = await page.locator('.kpi .value').allTextContents()
    expect(kpis).toHaveLength(4)
    expect(Number(kpis[0]!.replace(/\D/g, ''))).toBeGreaterThan(20)
    expect(kpis[2]).toBe('71%')
    expect(kpis[3]).toBe('2')
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0)
    expect(await page.getByRole('link', { name: 'Exporting flags to CSV' }).isVisible()).toBe(true)
    expect(errors).toEqual([])
  })

  test('a wrong key is refused without a hint; after 30 attempts from one address the form says to wait', async () => {
    const limitedDir = await mkdtemp(join(tmpdir(), 'docent-console-limit-'))
    const limited = await start(limitedDir)
    try {
      const { page } = await open({ fixture: false })
      await page.goto(`${limited.url}/console`)
      await page.getByLabel('Admin key').fill(limited.assistantKey)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page.getByRole('alert').textContent()).resolves.toMatch(/does not open the console/)
      for (let i = 1; i < SIGN_IN_PER_IP_PER_HOUR; i++) {
        await fetch(`${limited.url}/console/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-docent-console': '1' },
          body: '{"key":"svc_wrongwrongwrong"}',
        })
      }
      await page.getByLabel('Admin key').fill(limited.adminKey)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await page.getByText(/Too many attempts/).waitFor()
    } finally {
      await limited.stop()
      await rm(limitedDir, { recursive: true, force: true })
    }
  })

  test('keys: created and shown once (with copy), then only its hint; revoked, it stops working', async () => {
    const { page, context } = await open()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await signIn(page, server.adminKey, '/console/demo/keys')
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByLabel('Name').fill('Release bot')
    await page.getByLabel('Scope').selectOption('read')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    const secret = (await page.locator('[data-secret]').textContent())!.trim()
    expect(secret).toMatch(/^svc_[A-Za-z0-9]{32}$/)
    await page.getByRole('button', { name: 'Copy' }).click()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret)
    const row = page.getByRole('row').filter({ hasText: 'Release bot' })
    expect(await row.textContent()).toContain(`svc_…${secret.slice(-4)}`)
    expect(await row.textContent()).toContain('Read')
    expect((await fetch(`${server.url}/v2/agent/demo/jobs`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200)

    await page.reload()
    await page.getByRole('row').filter({ hasText: 'Release bot' }).waitFor()
    expect(await page.content()).not.toContain(secret)

    page.once('dialog', (dialog) => dialog.accept())
    await page.getByRole('button', { name: 'Revoke Release bot' }).click()
    await page.getByRole('row').filter({ hasText: 'Release bot' }).filter({ hasText: 'Revoked' }).waitFor()
    expect((await fetch(`${server.url}/v2/agent/demo/jobs`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401)
  })

  test('a read key sees every screen and can change nothing, in the UI and through the API', async () => {
    const read = await createKey(server.docent.context.store, { kind: 'admin', organization: 'demo', scope: 'read', name: 'viewer' })
    const { page } = await open()
    await signIn(page, read.secret, '/console/demo/overview')
    await page.getByText('Read-only').first().waitFor()
    for (const screen of SCREENS) {
      await page.goto(`${server.url}/console/demo/${screen}`)
      await page.locator('main h1').waitFor()
      await page.waitForLoadState('networkidle')
      expect(await page.locator('main .callout.danger').count(), screen).toBe(0)
    }
    await page.goto(`${server.url}/console/demo/gaps`)
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    for (const name of ['Fix with agent', 'Dismiss']) expect(await page.getByRole('button', { name, exact: true }).count(), name).toBe(0)
    await page.goto(`${server.url}/console/demo/agent`)
    await page.locator('main h1').waitFor()
    expect(await page.getByRole('button', { name: 'New job' }).count()).toBe(0)
    await page.goto(`${server.url}/console/demo/keys`)
    await page.getByRole('table').waitFor()
    expect(await page.getByRole('button', { name: /Create key|Revoke/ }).count()).toBe(0)
    await page.goto(`${server.url}/console/demo/feedback`)
    await page.getByRole('heading', { name: 'Comments and ratings' }).waitFor()
    expect(await page.getByLabel(/Review status/).count()).toBe(0)
    // The API behind the UI refuses the same session's changes, with the console header and all.
    const status = await page.evaluate(async () => {
      const response = await fetch('/v2/agent/demo/job', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-docent-console': '1' },
        body: JSON.stringify({ prompt: 'Fix misspellings' }),
      })
      return response.status
    })
    expect(status).toBe(403)
  })

  test('automations: turn one on, set its schedule, run it now, see its run; a read key sees and changes nothing', async () => {
    const { page, errors } = await open({ fixture: false })
    await signIn(page, server.adminKey, '/console/demo/automations')
    await page.getByRole('link', { name: /Draft changelog/ }).click()
    await page.waitForURL(/\/console\/demo\/automations\/draft-changelog$/)
    const toggle = page.getByRole('switch', { name: /Draft changelog/ })
    expect(await toggle.getAttribute('aria-checked')).toBe('false')
    expect(await page.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true)
    await toggle.click()
    await page.locator('[role=switch][aria-checked="true"]').waitFor()

    // A bad cron is refused with the field named; a good one is saved and shows its next run.
    await page.locator('main details > summary').click()
    await page.getByLabel('Cron (minute hour day month weekday)').fill('0 25 * * *')
    await page.getByRole('button', { name: 'Save settings' }).click()
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/trigger\.cron: invalid value for hour/)
    await page.getByLabel('Cron (minute hour day month weekday)').fill('0 7 * * 1-5')
    await page.getByLabel('Time zone').fill('Europe/Paris')
    // Longer instructions than the limit are not cut short behind the writer's back: the form counts and waits.
    const instructions = page.getByLabel('Instructions (added to what it is asked)')
    await instructions.fill('x'.repeat(10_005))
    await page.getByText('10,005 of 10,000 characters: 5 too many').waitFor()
    expect(await page.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true)
    await instructions.fill('Group SDK changes under their SDK.')
    await page.getByText('34 of 10,000 characters').waitFor()
    await page.getByRole('button', { name: 'Save settings' }).click()
    await page.getByText('Settings saved.').waitFor()
    const stored = (await server.docent.context.store.getAutomation('demo', 'draft-changelog'))!
    expect(stored).toMatchObject({
      enabled: true,
      trigger: { kind: 'schedule', cron: '0 7 * * 1-5', timeZone: 'Europe/Paris' },
      instructions: 'Group SDK changes under their SDK.',
    })
    expect(await page.locator('.pick-list a[aria-current="true"]').textContent()).toContain('Schedule 0 7 * * 1-5 (Europe/Paris)')

    await page.getByRole('button', { name: 'Run now' }).click()
    await page.getByText(/Run queued \(job \w+\)/).waitFor()
    const row = page.getByRole('region', { name: 'Run history' }).getByRole('row').nth(1)
    await row.waitFor()
    expect(await row.textContent()).toContain('Run now')
    await row.getByRole('link', { name: /Follow the job/ }).click()
    await page.waitForURL(/\/console\/demo\/agent\/[A-Za-z0-9]{22}$/)

    // A content automation cannot be run now; one that needs a model cannot be turned on here, and says why.
    await page.goto(`${server.url}/console/demo/automations/translate`)
    await page.getByText(/Cannot be turned on here: it needs a language model/).waitFor()
    expect(await page.getByRole('switch', { name: /Translate/ }).isDisabled()).toBe(true)

    const read = await createKey(server.docent.context.store, { kind: 'admin', organization: 'demo', scope: 'read', name: 'auditor' })
    const viewer = await open({ fixture: false })
    await signIn(viewer.page, read.secret, '/console/demo/automations/draft-changelog')
    await viewer.page.getByRole('heading', { name: 'Draft changelog' }).waitFor()
    await viewer.page.getByRole('region', { name: 'Run history' }).waitFor()
    expect(await viewer.page.getByRole('switch').count()).toBe(0)
    expect(await viewer.page.getByRole('button', { name: /Run now|Save settings/ }).count()).toBe(0)
    expect(await viewer.page.getByText('Group SDK changes under their SDK.').isVisible()).toBe(true)
    expect([...errors, ...viewer.errors]).toEqual([])
  })

  test('automations: a custom one is made in the console, runs on its own zone, and is deleted', async () => {
    const { page, errors } = await open({ fixture: false })
    await signIn(page, server.adminKey, '/console/demo/automations')
    await page.getByRole('button', { name: 'New automation' }).click()
    const dialog = page.getByRole('dialog', { name: 'New automation' })
    await dialog.getByLabel('Name').fill('Weekly API reference check')
    const prompt = dialog.getByLabel('What the agent is asked to do')
    // A prompt over the limit is counted, not cut, and Create waits.
    await prompt.fill('x'.repeat(20_001))
    await dialog.getByText('20,001 of 20,000 characters: 1 too many').waitFor()
    expect(await dialog.getByRole('button', { name: 'Create' }).isDisabled()).toBe(true)
    await prompt.fill('Compare the API reference with openapi.json and document what is missing.')
    // The server's refusal shows in the dialog, which stays open with what was typed.
    await dialog.getByLabel('Cron (minute hour day month weekday)').fill('0 3 * *')
    await dialog.getByLabel('Time zone').fill('Asia/Kolkata')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await expect(dialog.getByRole('alert').textContent()).resolves.toMatch(/trigger\.cron/)
    await dialog.getByLabel('Cron (minute hour day month weekday)').fill('0 3 * * *')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await page.waitForURL(/\/console\/demo\/automations\/[^/]+$/)
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!)
    await page.getByRole('heading', { name: 'Weekly API reference check' }).waitFor()
    await page.getByText('Automation created and on.').waitFor()
    const stored = await server.docent.context.store.getAutomation('demo', id)
    expect(stored).toMatchObject({
      kind: 'custom',
      enabled: true,
      prompt: 'Compare the API reference with openapi.json and document what is missing.',
      trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone: 'Asia/Kolkata' },
      mode: 'pull_request',
    })
    // The next run is given in the zone the cron is written in (the zone's own name, not an older alias).
    const nextRun = page.locator('dl.facts dt:text("Next run") + dd')
    expect(await nextRun.textContent()).toMatch(/\b3:00\b.*\(Asia\/Kolkata\)/)

    // Predefined automations are turned off, never deleted; a custom one is deleted after a confirmation.
    await page.goto(`${server.url}/console/demo/automations/fix-typos`)
    await page.getByRole('heading', { name: 'Fix typos' }).waitFor()
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0)
    await page.goto(`${server.url}/console/demo/automations/${encodeURIComponent(id)}`)
    page.once('dialog', (confirmation) => void confirmation.accept())
    await page.getByRole('button', { name: 'Delete Weekly API reference check' }).click()
    await page.waitForURL(/\/console\/demo\/automations$/)
    await page.getByRole('link', { name: /Fix typos/ }).waitFor()
    expect(await page.getByRole('link', { name: /Weekly API reference check/ }).count()).toBe(0)
    expect(await server.docent.context.store.getAutomation('demo', id)).toBeNull()
    expect(errors).toEqual([])
  })

  test('with Docent out of reach, screens say so in words and recover once it is back', async () => {
    const { page, errors } = await open({ fixture: false })
    await signIn(page, server.adminKey, '/console/demo/overview')
    await page.locator('main h1').waitFor()
    // The network refuses everything from here: the API, and the code of a screen not opened yet.
    await page.route(`${server.url}/**`, (route) => route.abort('connectionrefused'))
    await page.getByRole('link', { name: 'Project' }).click()
    const alert = page.locator('main [role=alert]')
    await expect(alert.textContent()).resolves.toContain('Docent cannot be reached')
    expect(await alert.textContent()).not.toMatch(/Failed to fetch|dynamically imported/)
    await page.getByRole('link', { name: 'Keys' }).click()
    await page.locator('main [role=alert]').filter({ hasText: 'Docent cannot be reached' }).waitFor()
    await page.unroute(`${server.url}/**`)
    await page.reload()
    await page.getByRole('heading', { name: 'Keys' }).waitFor()
    await page.getByRole('region', { name: 'Keys' }).or(page.locator('main table')).first().waitFor()
    expect(errors).toEqual([])
  })

  test('gaps: a dismissal is undone at once or reopened later, and a dismissed gap readers ask again says so', async () => {
    const { page, fixture, errors } = await open()
    await signIn(page, server.adminKey, '/console/demo/gaps/gap_export_csv?status=open')
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    await page.getByRole('button', { name: 'Dismiss', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'Dismissed.' }).waitFor()
    await page.getByRole('button', { name: 'Undo' }).click()
    await page.getByRole('status').filter({ hasText: 'Open again.' }).waitFor()
    expect(fixture!.gaps.find((gap) => gap.id === 'gap_export_csv')!.status).toBe('open')

    await page.getByRole('button', { name: 'Dismiss', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'Dismissed.' }).waitFor()
    await page.goto(`${server.url}/console/demo/gaps/gap_export_csv?status=dismissed`)
    const listed = page.locator('.pick-list a[aria-current="true"]')
    await expect(listed.textContent()).resolves.toContain('Asked again')
    await page.getByText('Readers asked one of its questions again since.').waitFor()
    await page.getByRole('button', { name: 'Reopen' }).click()
    await page.getByRole('status').filter({ hasText: 'Reopened.' }).waitFor()
    expect(fixture!.sent.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /gaps/gap_export_csv/dismiss',
      'POST /gaps/gap_export_csv/reopen',
      'POST /gaps/gap_export_csv/dismiss',
      'POST /gaps/gap_export_csv/reopen',
    ])
    expect(errors).toEqual([])
  })

  test('sign-out ends the session: back to sign-in, and the old cookie is refused', async () => {
    const { page, context } = await open()
    await signIn(page)
    const { cookie } = await sessionHash(context)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor()
    expect((await context.cookies()).find((c) => c.name === 'docent_session')).toBeUndefined()
    const old = await fetch(`${server.url}/v2/agent/demo/jobs`, { headers: { cookie: `docent_session=${cookie.value}` } })
    expect(old.status).toBe(401)
  })

  test("a cookie of another organization's session gets 403 on this organization's project", async () => {
    const other = await createKey(server.docent.context.store, { kind: 'admin', organization: 'acme' })
    const { page } = await open()
    await signIn(page, other.secret)
    // The app offers only the organization's own project…
    await page.waitForURL(/\/console\/acme-docs\/overview/)
    expect(await page.locator('.project-name').textContent()).toContain('Acme docs')
    expect(await page.getByLabel('Project').count()).toBe(0)
    // …and the API refuses the other one's.
    const status = await page.evaluate(async () => (await fetch('/v2/agent/demo/jobs')).status)
    expect(status).toBe(403)
  })

  test("a job's events appear live while it runs, then the PR", async () => {
    const { page } = await open()
    await signIn(page, server.adminKey, '/console/demo/agent')
    await page.getByRole('button', { name: 'New job' }).click()
    await page.getByLabel('Prompt').fill('Replace "Lumen Flags" with "Lumen Toggles" everywhere')
    await page.getByRole('button', { name: 'Start' }).click()
    await page.waitForURL(/\/console\/demo\/agent\/[A-Za-z0-9]{22}$/)
    const timeline = page.getByRole('list', { name: 'Job events' })
    await timeline.getByText(/job created/).waitFor()
    await page.getByText('Live').waitFor()
    // No worker has run yet: the view is open on an active job. Now one starts, and its work shows up as it happens.
    expect(await page.locator('.pick-list .chip').first().textContent()).toBe('Active')
    await server.docent.start()
    await timeline.getByText('run 1 started').waitFor()
    await timeline
      .getByText(/modified .*\.mdx/)
      .first()
      .waitFor()
    await page.getByRole('link', { name: /\/review\// }).waitFor()
    expect(await page.locator('#job-title + span .chip').textContent()).toBe('Completed')
    const types = await timeline.locator('.type').allTextContents()
    expect(types.slice(0, 2)).toEqual(['message', 'run.started'])
    expect(types).toContain('commit')
  })

  test('a session that ends under a half-typed form: sign in again in the dialog, the form is sent as typed', async () => {
    const { page, context } = await open()
    await signIn(page, server.adminKey, '/console/demo/agent')
    await page.getByRole('button', { name: 'New job' }).click()
    const prompt = 'Add a page titled "Glossary" with the text "A flag is a switch."'
    await page.getByLabel('Prompt').fill(prompt)
    // The session ends (as at its 12 hours) while the form is open.
    const { hash } = await sessionHash(context)
    expect(await server.docent.context.store.deleteSession(hash)).toBe(true)
    await page.getByRole('button', { name: 'Start' }).click()
    const dialog = page.getByRole('dialog', { name: 'Your session has ended' })
    await dialog.waitFor()
    await dialog.getByLabel('Admin key').fill(server.adminKey)
    await dialog.getByRole('button', { name: 'Sign in' }).click()
    await page.waitForURL(/\/console\/demo\/agent\/[A-Za-z0-9]{22}$/)
    const jobId = new URL(page.url()).pathname.split('/').at(-1)!
    const runs = await server.docent.context.store.listRuns(jobId)
    expect(runs[0]?.prompt).toBe(prompt)
  })

  test('agent: past the first 50 jobs, older ones load a page at a time, down to the first', async () => {
    for (let n = 1; n <= 55; n++) {
      const response = await fetch(`${server.url}/v2/agent/demo/job`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: `Paging job ${n}` }),
      })
      expect(response.status).toBe(200)
    }
    const { page, errors } = await open({ fixture: false })
    await signIn(page, server.adminKey, '/console/demo/agent')
    const paging = page.locator('.pick-list .pick-title').filter({ hasText: /^Paging job \d+$/ })
    await page.getByText('Paging job 55', { exact: true }).waitFor()
    expect(await page.locator('.pick-list a').count()).toBe(50)
    expect(await page.getByText('Paging job 1', { exact: true }).count()).toBe(0)
    await page.getByRole('button', { name: 'Load 50 older jobs' }).click()
    await page.getByText('Paging job 1', { exact: true }).waitFor()
    expect(await paging.count()).toBe(55)
    // The first of the new page has the focus, for a keyboard user to go on from there.
    expect(await page.evaluate(() => document.activeElement?.closest('li') !== null)).toBe(true)
    await page.getByText('Paging job 1', { exact: true }).click()
    await page.getByRole('heading', { name: 'Paging job 1' }).waitFor()
    expect(errors).toEqual([])
  })

  test('conversations: filter, transcript with sources; gaps: fix with the agent sends the writer text and page', async () => {
    const { page } = await open({ fixture: false })
    const fixture = await serveAnalyticsFixture(page, {
      onFix: async () => {
        const response = await fetch(`${server.url}/v2/agent/demo/job`, {
          method: 'POST',
          headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: 'Append a section "Export" to concepts/flags with the text "Use the CSV button."' }),
        })
        return (await response.json()) as AgentJob
      },
    })
    await signIn(page, server.adminKey, '/console/demo/conversations')
    await page.getByLabel('Answer').selectOption('unanswered')
    const first = page.locator('.pick-list a').first()
    expect(await first.textContent()).toMatch(/CSV|csv|SCIM/)
    await page.getByLabel('Answer').selectOption('answered')
    await page.locator('.pick-list a').filter({ hasText: 'install the JavaScript SDK' }).first().click()
    await page.getByRole('heading', { name: 'Transcript' }).waitFor()
    await page.locator('.bubble.assistant').waitFor()
    expect(await page.locator('.sources a').first().getAttribute('href')).toBe('https://docs.lumen.dev/sdks/javascript')
    // The answer as the reader saw it: its markdown link is a link, not `[guide](https://…)`.
    expect(await page.locator('.bubble.assistant').textContent()).toContain('see the guide [1].')
    expect(await page.locator('.bubble.assistant a').getAttribute('href')).toBe('https://docs.lumen.dev/sdks/javascript')

    await page.getByRole('link', { name: 'Gaps' }).click()
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    expect(await page.getByRole('table').first().textContent()).toContain('export flags as csv file')
    await page.getByRole('button', { name: 'Fix with agent' }).click()
    // This server's agent is the offline editor: it writes the facts it is given, and no instruction it would not
    // understand is prefilled (it would be queued as a follow-up the editor cannot carry out).
    const form = page.getByRole('dialog', { name: 'Fix with agent' })
    const facts = form.getByLabel('The facts readers need')
    expect(await facts.getAttribute('required')).not.toBeNull()
    expect(await form.getByLabel('Instruction').count()).toBe(0)
    expect(await form.getByLabel('Page to change (optional)').inputValue()).toBe('/concepts/flags')
    await facts.fill('Flags › Export › CSV downloads every flag with its rules.')
    await form.getByRole('button', { name: 'Start the job' }).click()
    await page.getByText('The agent is on it.').waitFor()
    expect(fixture.sent).toEqual([
      {
        method: 'POST',
        path: '/gaps/gap_export_csv/fix',
        body: { text: 'Flags › Export › CSV downloads every flag with its rules.', page: '/concepts/flags' },
      },
    ])
    await page.getByRole('link', { name: 'Follow the job' }).click()
    await page.waitForURL(/\/console\/demo\/agent\/[A-Za-z0-9]{22}$/)

    // With a language model the agent drafts from the docs: the instruction comes prefilled with the readers' words,
    // and the facts are optional.
    await page.route(`${server.url}/v2/projects/demo`, async (route) => {
      const response = await route.fetch()
      const status = (await response.json()) as { model: { provider: string } }
      await route.fulfill({ response, json: { ...status, model: { ...status.model, provider: 'openai' } } })
    })
    await page.goto(`${server.url}/console/demo/gaps/gap_export_csv?status=open`)
    await page.getByRole('button', { name: 'Fix with agent' }).click()
    expect(await form.getByLabel('Instruction').inputValue()).toContain('"Can I export flags to CSV?"')
    expect(await form.getByLabel('The facts readers need (optional)').getAttribute('required')).toBeNull()
  })

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`axe-core on every screen (${colorScheme}): no serious or critical violations`, async () => {
      const { page, errors } = await open({ colorScheme })
      await page.goto(`${server.url}/console`)
      await page.getByLabel('Admin key').waitFor()
      const found: string[] = []
      const check = async (name: string) => {
        const violations = await seriousViolations(page)
        found.push(...violations.map((violation) => `${name}: ${violation}`))
      }
      await check('sign-in')
      await signIn(page)
      const job = await fetch(`${server.url}/v2/agent/demo/jobs?limit=1`, { headers: { authorization: `Bearer ${server.adminKey}` } })
      const [latest] = ((await job.json()) as { jobs: AgentJob[] }).jobs
      for (const screen of SCREENS) {
        const id =
          screen === 'conversations'
            ? 'turn-0-0'
            : screen === 'agent'
              ? latest?.id
              : screen === 'gaps'
                ? 'gap_export_csv'
                : screen === 'automations'
                  ? 'draft-changelog'
                  : undefined
        await page.goto(`${server.url}/console/demo/${screen}${id ? `/${id}` : ''}`)
        await page.locator('main h1').waitFor()
        await page.waitForLoadState('networkidle')
        await page.locator('main [role=status]:text("Loading…")').waitFor({ state: 'detached' })
        await check(screen)
      }
      await page.goto(`${server.url}/console/demo/gaps/gap_export_csv`)
      await page.getByRole('button', { name: 'Fix with agent' }).click()
      await check('gaps: fix dialog')
      await page.goto(`${server.url}/console/demo/automations/translate`)
      await page.locator('main details > summary').click()
      await page.getByLabel('Target languages (comma-separated codes)').waitFor()
      await check('automations: settings open')
      await page.getByRole('button', { name: 'New automation' }).click()
      await page.getByRole('dialog', { name: 'New automation' }).waitFor()
      await check('automations: new automation dialog')
      expect(found).toEqual([])
      expect(errors).toEqual([])
      // Eleven screens and dialogs, each loaded and scanned: about 45 s on a quiet machine of two cores.
    }, 180_000)
  }

  test('project switcher: the same screen and range on the other project; feedback moves through review', async () => {
    const { page, fixture } = await open()
    await signIn(page, server.adminKey, '/console/demo/feedback?range=7d')
    await page.getByRole('heading', { name: 'Comments and ratings' }).waitFor()
    await page.getByLabel('Review status of the feedback on /concepts/flags').selectOption('in_progress')
    await page.locator('.list .chip').filter({ hasText: 'In progress' }).waitFor()
    expect(fixture!.sent).toEqual([{ method: 'PATCH', path: '/feedback/fb_1', body: { status: 'in_progress' } }])
    await page.getByLabel('Project').selectOption('handbook')
    await page.waitForURL(/\/console\/handbook\/feedback\?range=7d$/)
    await page.getByRole('heading', { name: 'Comments and ratings' }).waitFor()
    expect(await page.title()).toBe('Feedback · Handbook · Docent console')
    // The Project screen speaks of the project switched to; a project without an agent offers no new job.
    await page.getByRole('link', { name: 'Agent' }).click()
    await page.getByText('This project has no agent configured').waitFor()
    expect(await page.getByRole('button', { name: 'New job' }).isDisabled()).toBe(true)
  })

  test('the Project screen names the files left out, and says when the docs did not load at all', async () => {
    const { page } = await open()
    await signIn(page)
    await page.goto(`${server.url}/console/demo/project`)
    await page.getByText('None: every page file was read.').waitFor()
    expect(await page.locator('.card-head .chip').first().textContent()).toBe('Loaded')
    // A first load refused (a docs.json that is not JSON), with a link in the folder: as the server reports them.
    await page.route(`${server.url}/v2/projects/demo`, async (route) => {
      const response = await route.fetch()
      const status = (await response.json()) as { docs: Record<string, unknown> }
      const docs = {
        ...status.docs,
        revision: null,
        pages: 0,
        sections: 0,
        error: 'docs.json is not valid JSON (line 3, column 5: Unexpected token); this revision of the docs is not served',
        problems: [{ file: 'passwd.md', problem: 'left out: a symbolic link (links are not followed)' }],
      }
      await route.fulfill({ response, json: { ...status, docs } })
    })
    await page.reload()
    await page.getByRole('alert').filter({ hasText: 'The docs did not load: docs.json is not valid JSON (line 3, column 5' }).waitFor()
    expect(await page.locator('.card-head .chip').first().textContent()).toBe('Not loaded')
    expect(await page.locator('li').filter({ hasText: 'passwd.md' }).textContent()).toBe(
      'passwd.md: left out: a symbolic link (links are not followed)',
    )
  })

  test('phone, tablet and laptop widths: the navigation stays reachable and nothing scrolls sideways', async () => {
    const { page } = await open()
    await signIn(page)
    // The longest name a key may have, in one unbroken word, as a team pastes a token-like label.
    await createKey(server.docent.context.store, { kind: 'admin', organization: 'demo', scope: 'read', name: 'k'.repeat(100) })
    const wide: string[] = []
    for (const width of [1366, 820, 768, 375, 320]) {
      await page.setViewportSize({ width, height: 900 })
      for (const screen of SCREENS) {
        await page.goto(`${server.url}/console/demo/${screen}`)
        await page.locator('main h1').waitFor()
        await page.waitForLoadState('networkidle')
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        if (overflow > 0) wide.push(`${screen} at ${width}px: ${overflow}px too wide`)
        if (!(await page.getByRole('link', { name: 'Agent' }).isVisible())) wide.push(`${screen} at ${width}px: no navigation`)
      }
    }
    expect(wide).toEqual([])
  }, 240_000)

  test('keyboard only: skip link, navigation, a dialog opened and closed with the keyboard', async () => {
    const { page } = await open()
    await signIn(page)
    // A fresh load: the first Tab reaches the skip link.
    await page.reload()
    await page.locator('main h1').waitFor()
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    // Through the navigation to Agent, by keyboard alone.
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab')
      if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === '⚙Agent') break
    }
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/agent$/)
    // The new screen's heading takes the focus, so the next Tab goes into the screen.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === 'Agent')
    await page.getByRole('button', { name: 'New job' }).focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'New job' })
    await dialog.waitFor()
    expect(await page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true)
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
  })
})

// The gap loop end to end, as issue 17 asks: a question asked through the widget shows up in Conversations, an
// uncovered one becomes a gap, "Fix with agent" with a writer's text opens a PR, Merge lands it, and the gap turns
// fixed. It needs the analytics API (issue 16, another branch): until that is merged it skips, saying so.
describe.skipIf(skip)('the gap loop end to end (needs the analytics API)', () => {
  let browser: Browser
  let server: RunningDocent
  let dataDir: string
  let missing: string | null = null

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docent-console-gaploop-'))
    await Promise.all([buildConsoleIfStale(), ensureWidgetBuilt()])
    server = await start(dataDir, { docsFromRepository: true })
    const probe = await fetch(`${server.url}/v1/analytics/demo/gaps`, { headers: { authorization: `Bearer ${server.adminKey}` } })
    if (probe.status === 404) {
      missing = 'skipping the gap loop: this build has no analytics API yet (GET /v1/analytics/{projectId}/gaps is a 404)'
      console.log(missing)
      return
    }
    await server.docent.start()
    browser = await launchBrowser()
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  test('widget question → Conversations; uncovered question → gap → fix with text → PR → merge → fixed', async (ctx) => {
    if (missing) return ctx.skip()
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
    const page = await context.newPage()
    // Readers ask through the widget on the demo site: one the docs answer, and one they do not, three ways.
    await page.goto(`${server.url}/quickstart`)
    // Asked at once, before the widget's module has arrived: the loader queues the call and the widget replays it.
    // Each question is asked once the one before has been answered and recorded, as a reader would.
    const recorded = async (question: string) => {
      const response = await fetch(`${server.url}/v1/analytics/demo/assistant?limit=100`, {
        headers: { authorization: `Bearer ${server.adminKey}` },
      })
      const { conversations } = (await response.json()) as { conversations: Array<{ query: string }> }
      return conversations.some((turn) => turn.query === question)
    }
    const ask = async (question: string) => {
      await page.evaluate((text) => (window as unknown as { Docent: { ask(text: string): Promise<void> } }).Docent.ask(text), question)
      const until = Date.now() + 30_000
      while (!(await recorded(question))) {
        if (Date.now() > until) throw new Error(`the widget's question was never recorded: ${question}`)
        await page.waitForTimeout(200)
      }
    }
    await ask('How do I install the JavaScript SDK?')
    // Not in the docs: three phrasings of one question become one gap.
    for (const question of ['Is there a Ruby SDK?', 'Can I use Lumen from a Ruby app?', 'ruby sdk']) await ask(question)

    await page.goto(`${server.url}/console`)
    await page.getByLabel('Admin key').fill(server.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('link', { name: 'Conversations' }).click()
    await page.locator('.pick-list a').filter({ hasText: 'How do I install the JavaScript SDK?' }).first().click()
    await page.locator('.sources a').first().waitFor()

    await page.getByRole('link', { name: 'Gaps' }).click()
    await page.locator('.pick-list a').filter({ hasText: /ruby/i }).first().click()
    await page.getByRole('button', { name: 'Fix with agent' }).click()
    const form = page.getByRole('dialog', { name: 'Fix with agent' })
    await form.getByLabel('The facts readers need').fill('There is no Ruby SDK yet. From a Ruby app, call the REST API with an SDK key.')
    await form.getByRole('button', { name: 'Start the job' }).click()
    await page.getByText('The agent is on it.').waitFor()
    // The gap's status follows the job: open → in progress → PR open. The list is read when the filter changes, so
    // the test looks again (as a person would reload) until the gap shows under the status it waits for.
    const showsUnder = async (status: string, timeoutMs = 90_000) => {
      const until = Date.now() + timeoutMs
      for (;;) {
        await page.goto(`${server.url}/console/demo/gaps?status=${status}`)
        await page.locator('main h1').waitFor()
        await page.waitForLoadState('networkidle')
        if ((await page.locator('.pick-list a').filter({ hasText: /ruby/i }).count()) > 0) return
        if (Date.now() > until) throw new Error(`the gap never showed as ${status}`)
        await page.waitForTimeout(1000)
      }
    }
    await showsUnder('pr_open')
    await page.locator('.pick-list a').filter({ hasText: /ruby/i }).first().click()
    // Exact: the status filter has a "Merged" button too.
    await page.getByRole('button', { name: 'Merge', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'Merged.' }).waitFor()
    await showsUnder('fixed')
    await context.close()
  })
})
