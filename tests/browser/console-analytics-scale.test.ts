import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { sampleTurn } from '../../server/store/conformance-analytics.ts'
import { rateTurns, sampleThread } from '../../server/store/conformance-fixtures.ts'
import type { TurnRecord } from '../../server/store/types.ts'
import { seriousViolations } from './axe.ts'
import { browserSkipReason, launchBrowser, type RunningDocent, startDocent } from './support.ts'

// The console in real Chromium against a real Docent holding more conversations than the console once sampled
// (2,000): the Overview shows every one of them and a chart of the whole range; Conversations reaches the oldest.

const skip = browserSkipReason()
const DAY = 86_400_000
const LAST_DAY = '2026-11-30'
const RANGE = `from=2025-06-01&to=${LAST_DAY}`

describe.skipIf(skip)('the console on a range of 2,500 conversations', () => {
  let browser: Browser
  let server: RunningDocent
  const turns: TurnRecord[] = []

  beforeAll(async () => {
    await buildConsoleIfStale()
    ;[browser, server] = await Promise.all([launchBrowser(), startDocent()])
    const thread = sampleThread({ projectId: 'demo' })
    // 2,100 questions on the last day, and 400 over the year and a half before it, the oldest on 2025-06-01.
    for (let i = 0; i < 2100; i++) {
      turns.push(
        sampleTurn({
          projectId: 'demo',
          threadId: thread.id,
          askedAt: new Date(Date.parse(LAST_DAY) + i * 40_000),
          query: `Busy day question ${i}`,
        }),
      )
    }
    for (let j = 399; j >= 0; j--) {
      const askedAt = new Date(Date.parse('2025-06-01T09:00:00Z') + Math.floor((j * 547) / 400) * DAY)
      turns.push(
        sampleTurn({
          projectId: 'demo',
          threadId: thread.id,
          askedAt,
          resolution: j % 4 === 0 ? 'unanswered' : 'answered',
          query: `Older question ${j}`,
        }),
      )
    }
    const { store } = server.docent.context
    await store.createThread(thread)
    await store.recordAnalytics({ turns })
    // Four ratings: three up, one down.
    await rateTurns(store, thread.id, turns.slice(0, 4), 3, new Date(`${LAST_DAY}T12:00:00Z`))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  /** A signed-in page; `requests` collects the analytics requests it makes. */
  async function signedIn(): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      locale: 'en-US',
      timezoneId: 'UTC',
      // axe-core is injected as an inline script, which the console's policy (rightly) refuses.
      bypassCSP: true,
    })
    const page = await context.newPage()
    const requests: string[] = []
    const errors: string[] = []
    page.on('request', (request) => {
      const url = new URL(request.url())
      if (url.pathname.startsWith('/v1/analytics/')) requests.push(url.pathname + url.search)
    })
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${server.url}/console`)
    await page.getByLabel('Admin key').fill(server.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByLabel('Admin key').waitFor({ state: 'detached' })
    await page.locator('main h1').first().waitFor()
    return { page, requests, errors }
  }

  test('the Overview counts all 2,500 on the server and draws the whole range, week by week', async () => {
    const { page, requests, errors } = await signedIn()
    requests.length = 0
    await page.goto(`${server.url}/console/demo/overview?${RANGE}`)
    await page.getByRole('heading', { name: 'Questions per week' }).waitFor()
    const kpis = await page.locator('.kpi .value').allTextContents()
    expect(kpis.slice(0, 3)).toEqual(['2,500', '96%', '75%'])
    expect(await page.locator('.kpi .sub').allTextContents()).toContain('100 the docs did not cover')
    expect(await page.getByText(/figures use the latest/).count()).toBe(0)
    // One summary, and not one page of the conversations list.
    expect(requests.filter((path) => path.includes('/assistant/summary'))).toHaveLength(1)
    expect(requests.filter((path) => /\/assistant\?/.test(path))).toEqual([])
    // The numbers under the chart: every week from the one of 2025-06-01 to the one of the last day.
    const rows = page.locator('.data-table tbody tr')
    expect(await rows.count()).toBe(80)
    expect(await page.locator('.data-table thead th').first().textContent()).toBe('Week of')
    expect(await rows.first().locator('th').textContent()).toBe('2025-05-26')
    expect(await rows.last().allTextContents()).toEqual([expect.stringMatching(/^\s*2026-11-30\s*2100\s*0\s*$/)])
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0)
    expect(await seriousViolations(page)).toEqual([])

    // Since 1999: year by year, up to the last day.
    await page.goto(`${server.url}/console/demo/overview?from=1999-01-01&to=${LAST_DAY}`)
    await page.getByRole('heading', { name: 'Questions per year' }).waitFor()
    expect(await rows.count()).toBe(28)
    expect(await rows.last().locator('th').textContent()).toBe('2026')
    expect(errors).toEqual([])
  })

  test('Conversations reads a page at a time and "Load more" reaches the oldest question of the range', async () => {
    const { page, requests, errors } = await signedIn()
    requests.length = 0
    await page.goto(`${server.url}/console/demo/conversations?${RANGE}`)
    const status = page.locator('main form [role=status]')
    await status.filter({ hasText: '100 of 2,500' }).waitFor()
    expect(await page.locator('.pick-list li').count()).toBe(100)
    expect(requests.filter((path) => /\/assistant\?/.test(path))).toHaveLength(1)
    expect(await seriousViolations(page)).toEqual([])
    const more = page.getByRole('button', { name: /^Load (100|\d+) more$/ })
    for (let loaded = 100; loaded < 2500; loaded += 100) {
      await more.click()
      await status.filter({ hasText: `${(loaded + 100).toLocaleString('en-US')} of 2,500` }).waitFor()
      // Focus moves to the first question the page brought, so the keyboard carries on where the list grew.
      expect(
        await page.evaluate(
          () =>
            document.activeElement?.closest('li') ===
            document.querySelectorAll('.pick-list li')[document.querySelectorAll('.pick-list li').length - 100],
        ),
      ).toBe(true)
    }
    expect(await more.count()).toBe(0)
    expect(requests.filter((path) => /\/assistant\?/.test(path))).toHaveLength(25)
    const oldest = page.locator('.pick-list a').filter({ hasText: 'Older question 0' })
    expect(await page.locator('.pick-list a').last().textContent()).toContain('Older question 0')
    await oldest.click()
    await page.getByRole('heading', { name: 'Transcript' }).waitFor()
    expect(await page.locator('.facts').textContent()).toContain('Jun 1, 2025')
    // Filters apply to everything loaded: the unanswered among the 400 older questions.
    await page.getByLabel('Answer').selectOption('unanswered')
    await status.filter({ hasText: '100 match of the 2,500 loaded (2,500 in this range)' }).waitFor()
    expect(errors).toEqual([])
  })
})
