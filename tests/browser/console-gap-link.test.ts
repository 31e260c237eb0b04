import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { type AnalyticsFixture, serveAnalyticsFixture } from './console-fixtures.ts'
import { browserSkipReason, launchBrowser, type RunningDocent, startDocent } from './support.ts'
import { seriousViolations } from './axe.ts'

// A URL that names a gap shows that gap, whatever its status and the list's filter, or says there is no such gap: it
// never shows another gap, with that one's Fix and Dismiss buttons, under its id. Gaps are the contract-shaped fixture
// (console-fixtures.ts), with the one-gap read the fixture does not answer served here.

const skip = browserSkipReason()

describe.skipIf(skip)('a gap named in the URL', () => {
  let browser: Browser
  let server: RunningDocent
  const contexts: BrowserContext[] = []

  beforeAll(async () => {
    await buildConsoleIfStale()
    ;[browser, server] = await Promise.all([
      launchBrowser(),
      startDocent({
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            name: 'Demo docs',
            docs: { directory: 'demo/docs', public: true },
            agent: { repository: 'local:demo' },
          },
        ],
      }),
    ])
  }, 180_000)
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {})
    await browser?.close()
    await server?.stop()
  })

  /** A signed-in page whose analytics are the fixture's; a fix moves the gap to in progress, as the real API does. */
  async function open(path: string): Promise<{ page: Page; fixture: AnalyticsFixture }> {
    // bypassCSP: axe-core is injected as an inline script.
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, bypassCSP: true })
    contexts.push(context)
    const page = await context.newPage()
    const fixture: AnalyticsFixture = await serveAnalyticsFixture(page, {
      onFix: async () => {
        fixture.gaps.find((gap) => gap.id === 'gap_export_csv')!.status = 'in_progress'
        return { id: 'job_fixture', status: 'active' }
      },
    })
    // Routes added later are tried first: GET /gaps/{id}, which the shared fixture answers with a 404.
    await page.route(
      (url) => /^\/v1\/analytics\/[^/]+\/gaps\/[^/]+$/.test(url.pathname),
      async (route) => {
        if (route.request().method() !== 'GET') return route.fallback()
        const id = decodeURIComponent(new URL(route.request().url()).pathname.split('/').at(-1)!)
        const gap = fixture.gaps.find((candidate) => candidate.id === id)
        return route.fulfill(gap ? { json: gap } : { status: 404, json: { error: 'no such gap', code: 'not_found' } })
      },
    )
    await page.goto(`${server.url}${path}`)
    await page.getByLabel('Admin key').fill(server.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Admin key').waitFor({ state: 'detached' })
    return { page, fixture }
  }

  const detailTitle = (page: Page) => page.locator('#gap-title')
  const actionButtons = (page: Page) => page.getByRole('button', { name: /^(Fix with agent|Dismiss)$/ })

  test('after Fix with agent, and on reload, the gap of the URL stays on screen, not the next open one', async () => {
    // As the Overview links it: no status filter in the URL.
    const { page } = await open('/console/demo/gaps/gap_export_csv')
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    await page.getByRole('button', { name: 'Fix with agent' }).click()
    const form = page.getByRole('dialog', { name: 'Fix with agent' })
    await form.getByLabel('The facts readers need').fill('Flags › Export › CSV downloads every flag.')
    await form.getByRole('button', { name: 'Start the job' }).click()
    await page.getByText('The agent is on it.').waitFor()
    await page.locator('#gap-title + .chip').filter({ hasText: 'In progress' }).waitFor()
    expect(await detailTitle(page).textContent()).toBe('Exporting flags to CSV')
    expect(await actionButtons(page).count()).toBe(0)

    await page.reload()
    // The list's filter follows the gap to its status.
    await page.waitForURL(/\/console\/demo\/gaps\/gap_export_csv\?.*status=in_progress/)
    await page.locator('.pick-list a[aria-current="true"]').filter({ hasText: 'Exporting flags to CSV' }).waitFor()
    expect(await detailTitle(page).textContent()).toBe('Exporting flags to CSV')
    expect(await page.getByRole('button', { name: 'In progress', pressed: true }).count()).toBe(1)
    expect(await actionButtons(page).count()).toBe(0)
  })

  test('a gap the list filters out is shown with why, and a way to its own list', async () => {
    const { page, fixture } = await open('/console/demo/gaps')
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    fixture.gaps.find((gap) => gap.id === 'gap_scim')!.status = 'fixed'
    await page.goto(`${server.url}/console/demo/gaps/gap_scim?status=open`)
    await page.getByText('The list shows Open gaps; this one is Fixed.').waitFor()
    expect(await detailTitle(page).textContent()).toBe('SCIM provisioning')
    expect(await actionButtons(page).count()).toBe(0)
    expect(await seriousViolations(page)).toEqual([])
    await page.getByRole('link', { name: 'Show Fixed gaps' }).click()
    await page.waitForURL(/status=fixed/)
    await page.locator('.pick-list a[aria-current="true"]').filter({ hasText: 'SCIM provisioning' }).waitFor()
    expect(await page.getByText('The list shows').count()).toBe(0)
  })

  test('an unknown gap id says there is no such gap, with no buttons, beside the list', async () => {
    const { page } = await open('/console/demo/gaps/gap_gone')
    await page.getByRole('heading', { name: 'No such gap' }).waitFor()
    expect(await page.locator('main').textContent()).toContain('Demo docs has no gap gap_gone.')
    expect(await actionButtons(page).count()).toBe(0)
    expect(await page.getByRole('link', { name: /Exporting flags to CSV/ }).isVisible()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    // Picking a gap of the list shows it, with its buttons.
    await page.getByRole('link', { name: /Exporting flags to CSV/ }).click()
    await page.getByRole('heading', { name: 'Exporting flags to CSV' }).waitFor()
    expect(await actionButtons(page).count()).toBe(2)
  })
})
