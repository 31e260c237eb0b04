import { readFileSync } from 'node:fs'
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTcpServer } from 'node:net'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'
import { closeServer, listenLocal } from '../support/local-http.ts'
import {
  browserSkipReason,
  ensureWidgetBuilt,
  focusedInWidget,
  launchBrowser,
  recordAssistantRequests,
  type RunningDocent,
  startDocent,
  widgetViolations,
} from './support.ts'

// The widget as a guest on someone else's docs site: a site on its own origin embeds the README's script tag, and the
// widget must never hold the page up (a Docent server that never answers), must run under the Content-Security-Policy
// the READMEs document, stay reachable on pages that transform their body, keep code left to right on right-to-left
// pages, and pass axe inside its shadow root with answers holding wide code blocks.

const skip = browserSkipReason()

/** The README's recommended tag, so the docs and this test cannot drift apart. */
function recommendedTag(readme: string, server: string, apiKey: string): string {
  const tag = /<script\s+src="https:\/\/docent\.example\.com\/widget\/docent\.js"[\s\S]*?<\/script>/.exec(readFileSync(readme, 'utf8'))
  if (!tag) throw new Error(`${readme} has no recommended script tag`)
  return tag[0]
    .replaceAll('https://docent.example.com', server)
    .replace(/data-domain="[^"]*"/, 'data-domain="demo"')
    .replace(/data-api-key="[^"]*"/, `data-api-key="${apiKey}"`)
}

/** The README's Content-Security-Policy for the widget, filled in for a server. */
function documentedPolicy(server: string): string {
  const block = /```http\n(Content-Security-Policy:[\s\S]*?)```/.exec(readFileSync('README.md', 'utf8'))
  if (!block) throw new Error('README.md documents no Content-Security-Policy')
  return block[1]!
    .replace(/^Content-Security-Policy:\s*/, '')
    .replaceAll('https://docent.example.com', server)
    .replace(/\s+/g, ' ')
    .trim()
}

const WIDE_LINE = `const client = createClient({ sdkKey: process.env.LUMEN_SDK_KEY, environment: 'production', timeoutMs: 5000, retries: 3 })`
const ANSWER = [
  'Create the client once [1].',
  '',
  '```js',
  WIDE_LINE,
  "client.variation('new-checkout', false)",
  '```',
  '',
  '| Option | Default |',
  '|---|--:|',
  '| `timeoutMs` | 5000 |',
  '',
  'Then ask for a flag [1].',
].join('\n')
/** The answer to a question asked in Arabic: right-to-left text around left-to-right code. */
const ARABIC_ANSWER = ['أنشئ العميل مرة واحدة [1].', '', '```js', WIDE_LINE, '```', '', 'ثم استدعِ `client.variation()` لكل علم [1].'].join(
  '\n',
)

interface Site {
  url: string
  /** Serves `html` at `path`, with these response headers; `holdBodyMs` sends the head at once and the rest later. */
  page(path: string, html: string, options?: { headers?: Record<string, string>; holdBodyMs?: number }): string
  close(): Promise<void>
}

/** The customer's docs site, on an origin of its own. */
async function startSite(): Promise<Site> {
  const pages = new Map<string, { html: string; headers: Record<string, string>; holdBodyMs: number }>()
  const server: Server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const page = pages.get(new URL(req.url ?? '/', 'http://x').pathname)
    if (!page) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...page.headers })
    if (!page.holdBodyMs) {
      res.end(page.html)
      return
    }
    const split = page.html.indexOf('<body')
    res.write(page.html.slice(0, split))
    setTimeout(() => res.end(page.html.slice(split)), page.holdBodyMs)
  })
  const url = await listenLocal(server)
  return {
    url,
    page(path, html, { headers = {}, holdBodyMs = 0 } = {}) {
      pages.set(path, { html, headers, holdBodyMs })
      return `${url}${path}`
    },
    close: () => closeServer(server),
  }
}

/** A server that accepts connections and never answers: a Docent that hangs. */
async function startHungServer() {
  const sockets = new Set<import('node:net').Socket>()
  const server = createTcpServer((socket) => {
    sockets.add(socket)
    socket.on('data', () => {})
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as import('node:net').AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

const docPage = (head: string, body = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Customer docs</title>${head}</head>
<body><a href="#main">Skip to content</a><main id="main"><h1>Customer docs</h1>${body}</main></body></html>`

/** When the page's DOMContentLoaded and load fired (ms after navigation start; null when not yet). */
const pageEvents = (page: Page) =>
  page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[]
    return {
      domContentLoaded: navigation!.domContentLoadedEventStart || null,
      load: navigation!.loadEventStart || null,
    }
  })

describe.skipIf(skip)('<docent-chat> embedded in a customer’s site', () => {
  let browser: Browser
  let docent: RunningDocent
  let model: ScriptedOpenAI
  let site: Site

  beforeAll(async () => {
    await ensureWidgetBuilt()
    model = await startScriptedOpenAI((request) => ({
      text: /[\u0600-\u06ff]/.test(model.promptOf(request)) ? ARABIC_ANSWER : ANSWER,
      chunkSize: 40,
    }))
    ;[browser, docent, site] = await Promise.all([
      launchBrowser(),
      startDocent(
        { model: { provider: 'openai', id: 'scripted-model', baseURL: model.baseURL, apiKey: { env: 'SCRIPTED_KEY' } } },
        { SCRIPTED_KEY: 'sk-test' },
      ),
      startSite(),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([docent?.stop(), model?.close(), site?.close()])
  })

  const tag = (readme = 'README.md') => recommendedTag(readme, docent.url, docent.assistantKey)

  async function openPage(url: string, options: { viewport?: { width: number; height: number } } = {}) {
    const context: BrowserContext = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.goto(url)
    return { context, page, chat: page.locator('docent-chat') }
  }

  async function ask(page: Page, question: string, count = 1) {
    const chat = page.locator('docent-chat')
    await chat.getByRole('textbox').fill(question)
    await page.keyboard.press('Enter')
    await chat
      .locator('article.assistant')
      .nth(count - 1)
      .locator('.actions')
      .waitFor()
  }

  describe('never holds the host page up', () => {
    it('fires DOMContentLoaded at once with the READMEs’ tag when the Docent server never answers', async () => {
      const hung = await startHungServer()
      try {
        for (const readme of ['README.md', 'widget/README.md']) {
          const url = site.page('/hung', docPage(recommendedTag(readme, hung.url, 'svc_dsc_x')))
          const context = await browser.newContext()
          const page = await context.newPage()
          await page.goto(url, { waitUntil: 'commit' })
          await expect.poll(async () => (await pageEvents(page)).domContentLoaded, { timeout: 5000 }).not.toBeNull()
          await context.close()
        }
      } finally {
        await hung.close()
      }
    })

    it('fires DOMContentLoaded and load while the widget’s module never arrives, and mounts whether it runs before or after the page is parsed', async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.route('**/widget/docent.mjs', () => {
        // never answered
      })
      await page.goto(site.page('/module-hung', docPage(tag())), { waitUntil: 'commit' })
      await expect.poll(async () => (await pageEvents(page)).load, { timeout: 5000 }).not.toBeNull()
      await context.close()

      // Before: the head's tag runs while the body is still on its way; the widget waits for it, after the skip link.
      const early = await openPage(site.page('/slow-body', docPage(tag()), { holdBodyMs: 800 }))
      await early.chat.getByRole('button', { name: /Ask AI/ }).waitFor()
      expect(await early.page.evaluate(() => document.querySelector('a[href="#main"]')?.nextElementSibling?.localName)).toBe('docent-chat')
      await early.context.close()
      // After: a page (or a tag manager) adds the tag once it has loaded.
      const late = await openPage(site.page('/late', docPage('')))
      await late.page.evaluate((html) => document.head.append(document.createRange().createContextualFragment(html)), tag())
      await late.chat.getByRole('button', { name: /Ask AI/ }).waitFor()
      await late.context.close()
    })
  })

  it('runs under the README’s Content-Security-Policy (no eval, no inline script or style, Trusted Types): shows, asks about a selection, opens and answers with no violation', async () => {
    const policy = `default-src 'none'; ${documentedPolicy(docent.url)}`
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    await page.addInitScript(() => {
      const seen: string[] = []
      ;(window as unknown as { violations: string[] }).violations = seen
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(
          `${event.effectiveDirective} ${event.blockedURI} ${event.sample} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`.trim(),
        ),
      )
    })
    const body = '<p id="selected">Flags turn a feature on for some of your users.</p>'
    await page.goto(site.page('/strict', docPage(tag(), body), { headers: { 'content-security-policy': policy } }))
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()
    // The "Ask about selection" pill is placed under the selected text (through the CSSOM, which style-src allows).
    const selected = await page.evaluate(() => {
      const range = document.createRange()
      range.selectNodeContents(document.getElementById('selected')!)
      document.getSelection()!.removeAllRanges()
      document.getSelection()!.addRange(range)
      const { left, right, bottom } = range.getBoundingClientRect()
      return { left, right, bottom }
    })
    const pill = chat.getByRole('button', { name: 'Ask about selection' })
    const placed = (await pill.boundingBox())!
    expect(placed.y).toBeGreaterThanOrEqual(selected.bottom)
    expect(placed.y).toBeLessThan(selected.bottom + 40)
    expect(placed.x + placed.width / 2).toBeGreaterThan(selected.left)
    expect(placed.x + placed.width / 2).toBeLessThan(selected.right)
    await pill.click()
    await chat.getByRole('dialog').waitFor()
    await ask(page, 'How do I create a client?')
    expect(await chat.locator('article.assistant .code').count()).toBe(1)
    await chat.getByRole('button', { name: 'Search', exact: true }).click()
    await chat.getByRole('combobox').fill('flags')
    await chat.getByRole('option').nth(1).waitFor()
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([])
    await context.close()
  })

  it('under a policy whose connect-src leaves the server out, says the assistant is not set up (no Retry) and tells the console why', async () => {
    const policy = `default-src 'none'; ${documentedPolicy(docent.url).replace(/connect-src [^;]+;\s*/, '')}`
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const console: string[] = []
    page.on('console', (message) => console.push(message.text()))
    await page.goto(site.page('/no-connect', docPage(tag()), { headers: { 'content-security-policy': policy } }))
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('How do I create a client?')
    await page.keyboard.press('Enter')
    const alert = chat.getByRole('alert')
    await alert.waitFor()
    expect(await alert.innerText()).toBe('The assistant is not set up for this site yet.')
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    expect(console.join('\n')).toContain(`add ${docent.url} to the policy's connect-src`)
    await context.close()
  })

  it('keeps the launcher and the panel in the viewport when the page transforms, filters or will-change’s html or body', async () => {
    for (const style of ['body { transform: translateZ(0) }', 'body { filter: invert(0) }', 'html { will-change: transform }']) {
      // The page also styles every popover of its own, as design systems do.
      const popovers = '[popover] { display: block !important; padding: 1rem; border: 2px solid; background: white }'
      const html = docPage(`${tag()}<style>${style} ${popovers} main { height: 4000px }</style>`)
      const { context, chat } = await openPage(site.page('/transformed', html), { viewport: { width: 1024, height: 700 } })
      const launcher = chat.getByRole('button', { name: /Ask AI/ })
      await launcher.waitFor()
      const box = (await launcher.boundingBox())!
      expect(box.y + box.height, style).toBeLessThanOrEqual(700)
      expect(box.y, style).toBeGreaterThan(500)
      await launcher.click()
      const panel = (await chat.getByRole('dialog').boundingBox())!
      expect(panel.y + panel.height, style).toBeLessThanOrEqual(700)
      // The host has no box: neither the browser's popover look nor the page's shows as a square mid-screen.
      expect(await chat.evaluate((el) => el.getBoundingClientRect().width), style).toBe(0)
      await context.close()
    }
  })

  it('passes axe inside the shadow root with two answers holding a wide code block: code scrolls by keyboard, each answer’s sources named apart', async () => {
    const { context, page, chat } = await openPage(site.page('/axe', docPage(tag())))
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await ask(page, 'How do I create a client?')
    await ask(page, 'And in production?', 2)
    const pre = chat.locator('article.assistant pre').first()
    expect(await pre.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true)
    expect(await widgetViolations(page)).toEqual([])
    // Moderate ones too, for these two rules (widgetViolations keeps serious and critical).
    const found = await page.evaluate(async () => {
      const { axe } = window as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }> }
      }
      const result = await axe.run(document, { runOnly: { type: 'rule', values: ['scrollable-region-focusable', 'landmark-unique'] } })
      return result.violations.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`)
    })
    expect(found).toEqual([])
    // The keyboard reaches the code and scrolls it.
    await pre.focus()
    await page.keyboard.press('ArrowRight')
    await expect.poll(() => pre.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
    await context.close()
  })

  it('keeps code left to right on a right-to-left page, and the panel in its UI language’s direction', async () => {
    const html = docPage(tag()).replace('<html lang="en">', '<html lang="ar" dir="rtl">')
    const { context, page, chat } = await openPage(site.page('/rtl', html))
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    const direction = (selector: string) =>
      chat
        .locator(selector)
        .first()
        .evaluate((el) => getComputedStyle(el).direction)
    expect(await direction('[role="dialog"]')).toBe('ltr')
    expect(await direction('.header h2')).toBe('ltr')
    // Text in the reader's own language takes its own direction; code in it stays left to right.
    await chat.getByRole('textbox').fill('كيف أنشئ عميلا؟')
    expect(await direction('textarea')).toBe('rtl')
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant .actions').waitFor()
    expect(await direction('article.user p')).toBe('rtl')
    expect(await direction('article.assistant .answer')).toBe('rtl')
    expect(await direction('article.assistant pre')).toBe('ltr')
    expect(await direction('article.assistant p code')).toBe('ltr')
    await context.close()
  })

  it('counts the question’s characters near the API’s limit, and refuses to send one over it with the text kept', async () => {
    const { context, page, chat } = await openPage(site.page('/long', docPage(tag())))
    const sent = recordAssistantRequests(context)
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    const box = chat.getByRole('textbox')
    await box.fill('How do flags work?')
    expect(await chat.locator('.count').count()).toBe(0)
    await box.fill('a'.repeat(95_000))
    await chat.getByText('95,000 of 100,000 characters').waitFor()
    expect(await box.getAttribute('aria-invalid')).toBeNull()
    // Code points, as the API counts them: an emoji is one character.
    await box.fill('😀'.repeat(100_001))
    await chat.getByText('100,001 of 100,000 characters').waitFor()
    expect(await box.getAttribute('aria-invalid')).toBe('true')
    await page.keyboard.press('Enter')
    await chat.getByRole('alert').getByText('Your question is too long: at most 100,000 characters.', { exact: false }).waitFor()
    expect(await box.inputValue()).toHaveLength(200_002)
    expect(await chat.locator('article').count()).toBe(0)
    expect(sent).toEqual([])
    // Shortened, it goes.
    await box.fill('How do flags work?')
    expect(await chat.getByRole('alert').count()).toBe(0)
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant .actions').waitFor()
    expect(sent).toHaveLength(1)
    await context.close()
  })

  it('shows the whole title and placeholder on a phone and a desktop, and names its dialog, modes and chips fully', async () => {
    for (const width of [320, 375, 1280]) {
      const { context, page, chat } = await openPage(site.page('/sizes', docPage(tag())), { viewport: { width, height: 740 } })
      await chat.getByRole('button', { name: /Ask AI/ }).click()
      const title = chat.getByRole('heading', { name: 'Ask the docs' })
      expect(await title.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().width > 0), `${width}px`).toBe(
        true,
      )
      const placeholder = await chat.getByRole('textbox').evaluate((el) => {
        const box = el as HTMLTextAreaElement
        const shown = box.clientHeight
        box.value = box.placeholder
        const needed = box.scrollHeight
        box.value = ''
        return { shown, needed }
      })
      expect(placeholder.shown, `${width}px`).toBeGreaterThanOrEqual(placeholder.needed)
      expect(await chat.getByRole('dialog').getAttribute('aria-modal')).toBe('true')
      await chat.getByRole('group', { name: 'Search or ask' }).waitFor()
      if (width === 1280) {
        await ask(page, 'How do I create a client?')
        const cite = await chat.locator('article.assistant a.cite').first().getAttribute('href')
        expect(cite).toContain('#')
        expect(await chat.getByRole('navigation', { name: 'Sources' }).getByRole('link').first().getAttribute('href')).toBe(cite)
      }
      await context.close()
    }
  })

  it('closes the 👎 comment form with Escape before the panel, focus back on 👎', async () => {
    const { context, page, chat } = await openPage(site.page('/feedback', docPage(tag())))
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await ask(page, 'How do I create a client?')
    await chat.getByRole('button', { name: 'Not helpful' }).click()
    const form = chat.locator('.feedback-form')
    await form.locator('textarea').focus()
    await page.keyboard.press('Escape')
    await form.waitFor({ state: 'detached' })
    expect(await chat.getByRole('dialog').count()).toBe(1)
    expect(await chat.getByRole('button', { name: 'Not helpful' }).evaluate((el) => el.matches(':focus'))).toBe(true)
    await page.keyboard.press('Escape')
    await chat.getByRole('dialog').waitFor({ state: 'detached' })
    expect(await focusedInWidget(page)).toBe('button.launcher')
    await context.close()
  })
})
