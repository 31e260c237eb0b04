import type { Browser, BrowserContextOptions } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  browserSkipReason,
  discardScreenshots,
  screenshotDir,
  ensureWidgetBuilt,
  launchBrowser,
  type RunningDocent,
  startDocent,
} from './support.ts'

// Screenshots of the widget on the demo site, light, dark and at phone width, for the README (docs/screenshots/).

const skip = browserSkipReason()

const SHOTS: Array<{ name: string; path: string; question: string; options: BrowserContextOptions; attributes?: Record<string, string> }> =
  [
    {
      name: 'widget-light',
      path: '/guides/percentage-rollouts',
      question: 'How do percentage rollouts work?',
      options: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
    },
    {
      name: 'widget-dark',
      path: '/sdks/javascript',
      question: 'How do I install the JavaScript SDK?',
      options: { viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
    },
    {
      name: 'widget-phone',
      path: '/quickstart',
      question: 'How do I create my first flag?',
      options: { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light' },
    },
    {
      name: 'widget-sidepanel',
      path: '/concepts/segments',
      question: 'How do segments work?',
      options: { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
      attributes: { variant: 'sidepanel' },
    },
  ]

describe.skipIf(skip)('widget screenshots', () => {
  let browser: Browser
  let dir: string
  let server: RunningDocent

  beforeAll(async () => {
    await ensureWidgetBuilt()
    dir = screenshotDir()
    ;[browser, server] = await Promise.all([launchBrowser(), startDocent()])
  })
  afterAll(async () => {
    discardScreenshots(dir)
    await browser?.close()
    await server?.stop()
  })

  for (const shot of SHOTS) {
    it(`${shot.name}: an answered question with its sources`, async () => {
      const context = await browser.newContext({ ...shot.options, reducedMotion: 'reduce' })
      const page = await context.newPage()
      await page.goto(`${server.url}${shot.path}`)
      const chat = page.locator('docent-chat')
      await chat.evaluate((el, attributes) => {
        for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value)
      }, shot.attributes ?? {})
      await chat.getByRole('button', { name: /Ask AI/ }).click()
      await chat.getByRole('textbox').fill(shot.question)
      await page.keyboard.press('Enter')
      await chat.locator('article.assistant .actions').waitFor()
      // The reader's view starts at the top of the answer.
      await chat.locator('.messages').evaluate((list) => (list.scrollTop = 0))
      expect(await chat.locator('article.assistant nav a').count()).toBeGreaterThan(0)
      const file = `${dir}/${shot.name}.png`
      const image = await page.screenshot({ path: file })
      expect(image.length).toBeGreaterThan(10_000)
      await context.close()
    })
  }

  it('widget-search: search as you type, with "ask AI" from the same box', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light', reducedMotion: 'reduce' })
    const page = await context.newPage()
    await page.goto(`${server.url}/quickstart`)
    const chat = page.locator('docent-chat')
    await chat.locator('.launcher').waitFor()
    await page.keyboard.press('Control+k')
    await chat.getByRole('combobox').pressSequentially('percentage rollout')
    await expect.poll(() => chat.getByRole('option').count()).toBeGreaterThan(2)
    const image = await page.screenshot({ path: `${dir}/widget-search.png` })
    expect(image.length).toBeGreaterThan(10_000)
    await context.close()
  })
})
