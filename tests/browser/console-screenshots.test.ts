import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { serveAnalyticsFixture } from './console-fixtures.ts'
import { browserSkipReason, discardScreenshots, screenshotDir, launchBrowser, type RunningDocent, startDocent } from './support.ts'

// Screenshots of the console for the README (docs/screenshots/console-*.png): the overview, a gap being fixed, a
// job's live view and an automation's run history, light and dark. Analytics come from the contract-shaped fixture.

const skip = browserSkipReason()

describe.skipIf(skip)('console screenshots', () => {
  let browser: Browser
  let dir: string
  let server: RunningDocent
  let dataDir: string

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'docent-console-shots-'))
    dir = screenshotDir()
    await buildConsoleIfStale()
    ;[browser, server] = await Promise.all([
      launchBrowser(),
      startDocent({
        dataDir,
        worker: true,
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            name: 'Lumen docs',
            docs: { directory: 'demo/docs' },
            agent: { repository: 'local:demo' },
          },
        ],
      }),
    ])
    await server.docent.start()
  }, 180_000)
  afterAll(async () => {
    discardScreenshots(dir)
    await browser?.close()
    await server?.stop()
    await rm(dataDir, { recursive: true, force: true })
  })

  async function signedIn(colorScheme: 'light' | 'dark'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 820 }, colorScheme, reducedMotion: 'reduce' })
    const page = await context.newPage()
    await serveAnalyticsFixture(page)
    await page.goto(`${server.url}/console`)
    await page.getByLabel('Admin key').fill(server.adminKey)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('main h1').waitFor()
    return page
  }

  const shoot = async (page: Page, name: string) => {
    const image = await page.screenshot({ path: `${dir}/${name}.png` })
    expect(image.length).toBeGreaterThan(10_000)
  }

  for (const scheme of ['light', 'dark'] as const) {
    it(`overview, a gap being fixed, a job live (${scheme})`, async () => {
      const page = await signedIn(scheme)
      await page.locator('.chart canvas').first().waitFor()
      await page.mouse.move(0, 0)
      await shoot(page, `console-overview-${scheme}`)

      await page.goto(`${server.url}/console/demo/gaps/gap_export_csv`)
      await page.getByRole('button', { name: 'Fix with agent' }).click()
      await page
        .getByLabel('The facts readers need')
        .fill('Open Flags, choose Export › CSV: every flag with its rules and targeting, one row each.')
      await shoot(page, `console-gap-fix-${scheme}`)

      await page.goto(`${server.url}/console/demo/agent`)
      await page.getByRole('button', { name: 'New job' }).click()
      await page
        .getByLabel('Prompt')
        .fill('Append a section "Export to CSV" to concepts/flags with the text "Open Flags, choose Export › CSV."')
      await page.getByRole('button', { name: 'Start' }).click()
      await page.getByRole('link', { name: /\/review\// }).waitFor()
      await shoot(page, `console-job-${scheme}`)

      // Fix broken links on, and a push with a broken link: its run and pull request in the history.
      const { store } = server.docent.context
      if ((await store.listAutomationRuns('demo', 'fix-broken-links', { limit: 1 })).items.length === 0) {
        await fetch(`${server.url}/v2/agent/demo/automations/fix-broken-links`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${server.adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ enabled: true }),
        })
        const workspace = await server.docent.context.agentGit.workspaces.open({ repository: 'local:demo', ref: 'main' })
        await workspace.writeFile(
          'quickstart.mdx',
          `${await workspace.readFile('quickstart.mdx')}\nNext: [targeting](/concept/targetting).\n`,
        )
        await workspace.commit({ message: 'Link targeting from the quickstart', author: { name: 'Writer', email: 'writer@example.com' } })
        await workspace.push('main')
      }
      // The screen reads the history once: it opens when the run has its pull request.
      while (!(await store.listAutomationRuns('demo', 'fix-broken-links', { limit: 1 })).items[0]?.prLink) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      await page.goto(`${server.url}/console/demo/automations/fix-broken-links`)
      await page.getByRole('region', { name: 'Run history' }).getByRole('link', { name: 'Pull request' }).waitFor()
      await shoot(page, `console-automations-${scheme}`)
      await page.context().close()
    }, 120_000)
  }
})
