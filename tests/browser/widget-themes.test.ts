import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { browserSkipReason, widgetOnDemoSite, widgetViolations } from './support.ts'

// Light and dark as a reader meets them: the element's theme attribute, the system setting, and the host page's own
// switch; axe-core finds no serious or critical violation in any of them, open or answered; and a hostile host
// stylesheet (properties body passes on by inheritance) changes nothing inside the widget.

const skip = browserSkipReason()

/** WCAG contrast ratio of two CSS colours as the browser computes them (any syntax it understands). */
async function contrast(page: Page, foreground: string, background: string): Promise<number> {
  return page.evaluate(
    ([fg, bg]) => {
      const canvas = document.createElement('canvas').getContext('2d')!
      const rgb = (colour: string) => {
        canvas.clearRect(0, 0, 1, 1)
        canvas.fillStyle = colour
        canvas.fillRect(0, 0, 1, 1)
        return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)]
      }
      const luminance = (colour: string) => {
        const [r, g, b] = rgb(colour).map((v) => {
          const c = v / 255
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
        })
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
      }
      const [a, b] = [luminance(fg!), luminance(bg!)].sort((x, y) => y - x)
      return (a! + 0.05) / (b! + 0.05)
    },
    [foreground, background],
  )
}

describe.skipIf(skip)('<docent-chat> themes and the host page', () => {
  const demo = widgetOnDemoSite()

  interface Setup {
    name: string
    colorScheme: 'light' | 'dark'
    /** Runs in the page before the widget is opened. */
    prepare?: (page: Page) => Promise<unknown>
    scheme: 'light' | 'dark'
  }
  const SETUPS: Setup[] = [
    { name: 'light', colorScheme: 'light', scheme: 'light' },
    {
      name: 'dark by attribute on a light site',
      colorScheme: 'light',
      prepare: (page) => page.locator('docent-chat').evaluate((el) => el.setAttribute('theme', 'dark')),
      scheme: 'dark',
    },
    { name: 'dark by the system', colorScheme: 'dark', scheme: 'dark' },
    {
      name: 'dark by the site’s own switch (html[data-theme=dark])',
      colorScheme: 'light',
      prepare: (page) => page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark')),
      scheme: 'dark',
    },
    {
      name: 'dark by a .dark class on html, with the README’s teal accent',
      colorScheme: 'light',
      prepare: (page) =>
        page.evaluate(() => {
          document.documentElement.classList.add('dark')
          document.documentElement.style.setProperty('--docent-accent', '#0f766e')
        }),
      scheme: 'dark',
    },
    {
      name: 'light by the site’s switch on a dark system',
      colorScheme: 'dark',
      prepare: (page) => page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light')),
      scheme: 'light',
    },
  ]

  const open = async (setup: Setup): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
      colorScheme: setup.colorScheme,
      reducedMotion: 'reduce',
    })
    const page = await context.newPage()
    await page.goto(`${demo.server.url}/guides/percentage-rollouts`)
    await page
      .locator('docent-chat')
      .getByRole('button', { name: /Ask AI/ })
      .waitFor()
    await setup.prepare?.(page)
    return { context, page }
  }

  for (const setup of SETUPS) {
    it(`${setup.name}: the scheme is followed and readable; axe finds nothing serious, closed, open or answered`, async () => {
      const { context, page } = await open(setup)
      const chat = page.locator('docent-chat')
      await expect.poll(() => chat.getAttribute('scheme')).toBe(setup.scheme)
      const launcher = chat.locator('.launcher')
      const colours = await launcher.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor])
      expect(await contrast(page, colours[0]!, colours[1]!), `launcher ${colours}`).toBeGreaterThanOrEqual(4.5)
      expect(await widgetViolations(page)).toEqual([])

      await launcher.click()
      await chat.getByRole('dialog').waitFor()
      expect(await widgetViolations(page)).toEqual([])
      await chat.getByRole('textbox').fill('How do percentage rollouts work?')
      await page.keyboard.press('Enter')
      await chat.locator('article.assistant .actions').waitFor()
      // A link in the answer (a citation or source) against the panel's background.
      const link = await chat
        .locator('article.assistant .answer a, article.assistant nav a')
        .first()
        .evaluate((el) => {
          let panel: Element | null = el
          while (panel && !panel.classList?.contains('panel')) {
            panel = panel.parentElement
          }
          return [getComputedStyle(el).color, getComputedStyle(panel!).backgroundColor]
        })
      expect(await contrast(page, link[0]!, link[1]!), `link ${link}`).toBeGreaterThanOrEqual(4.5)
      expect(await widgetViolations(page)).toEqual([])
      await context.close()
    })
  }

  it('changes with the site’s switch while open', async () => {
    const { context, page } = await open(SETUPS[0]!)
    const chat = page.locator('docent-chat')
    await chat.locator('.launcher').click()
    const panel = chat.locator('section.panel')
    await panel.waitFor()
    const background = () => panel.evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(await background()).toBe('rgb(255, 255, 255)')
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'))
    await expect.poll(background).toBe('rgb(17, 24, 39)')
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'))
    await expect.poll(background).toBe('rgb(255, 255, 255)')
    await context.close()
  })

  it('is not changed by what the host page sets on body and html (inherited properties)', async () => {
    const HOSTILE = `
      html, body { text-transform: uppercase; letter-spacing: 3px; text-align: center; font-style: italic; line-height: 3;
        word-spacing: 12px; font-weight: 900; font-size: 24px; color: rgb(255, 0, 0); font-family: 'Comic Sans MS', cursive;
        text-indent: 40px; text-shadow: 0 0 2px red; font-variant: small-caps; white-space: pre; cursor: wait;
        visibility: visible; direction: ltr; font-stretch: condensed; hyphens: auto; tab-size: 20; quotes: '<' '>'; }`
    const sample = async (hostile: boolean) => {
      const { context, page } = await open(SETUPS[0]!)
      if (hostile) await page.addStyleTag({ content: HOSTILE })
      const chat = page.locator('docent-chat')
      const launcher = await chat.locator('.launcher').evaluate((el) => el.getBoundingClientRect().width)
      await chat.locator('.launcher').click()
      await chat.getByRole('dialog').waitFor()
      const styles = await chat.evaluate((el) => {
        const root = el.shadowRoot!.querySelector('docent-panel')!.shadowRoot!
        const props = [
          'text-transform',
          'letter-spacing',
          'text-align',
          'font-style',
          'line-height',
          'word-spacing',
          'font-weight',
          'font-size',
          'color',
          'font-family',
          'text-indent',
          'text-shadow',
          'font-variant-caps',
          'white-space',
          'cursor',
          'font-stretch',
        ]
        return ['.welcome p', '#docent-title', 'textarea', '.starters button', '.disclaimer'].map((selector) => {
          const style = getComputedStyle(root.querySelector(selector)!)
          return [selector, Object.fromEntries(props.map((prop) => [prop, style.getPropertyValue(prop)]))]
        })
      })
      await context.close()
      return { launcher, styles }
    }
    const clean = await sample(false)
    const hostile = await sample(true)
    expect(hostile).toEqual(clean)
  })
})
