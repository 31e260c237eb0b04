import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'
import { browserSkipReason, ensureWidgetBuilt, launchBrowser, type RunningDocent, startDocent } from './support.ts'

// What a reader sees when things go wrong: a model answering with hostile markup (it must render as inert text),
// and the server refusing with 429 (a readable message with the wait).

const skip = browserSkipReason()

const HOSTILE = [
  'Here is <img src=x onerror="window.__pwned=1"> and <script>window.__pwned=2</script> inline.',
  '',
  '<iframe src="javascript:window.__pwned=3"></iframe>',
  '',
  '<svg onload="window.__pwned=4"></svg> <a href="javascript:window.__pwned=5">html link</a>',
  '',
  '[markdown link](javascript:window.__pwned=6) and ![image](x" onerror="window.__pwned=7) and [a real page](/quickstart)',
  '',
  '| Plan | Price |',
  '|------|------:|',
  '| Team | $20 |',
  '',
  '```js',
  'const flag = client.variation("new-checkout", false)',
  '```',
].join('\n')

describe.skipIf(skip)('<docent-chat> with hostile output and rate limits', () => {
  let browser: Browser
  let model: ScriptedOpenAI
  let hostile: RunningDocent
  let limited: RunningDocent

  beforeAll(async () => {
    await ensureWidgetBuilt()
    model = await startScriptedOpenAI(() => ({
      text: HOSTILE,
      chunkSize: 7,
    }))
    ;[browser, hostile, limited] = await Promise.all([
      launchBrowser(),
      startDocent(
        {
          model: {
            provider: 'openai',
            id: 'hostile-model',
            baseURL: model.baseURL,
            apiKey: { env: 'SCRIPTED_KEY' },
          },
        },
        {
          SCRIPTED_KEY: 'sk-test',
        },
      ),
      // One question per client IP per day: the second one is refused.
      startDocent({ limits: { ipPerDay: 1 } }),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([hostile?.stop(), limited?.stop(), model?.close()])
  })

  it('renders hostile model output as inert text: no script runs, no element is injected, only safe links', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    })
    const page = await context.newPage()
    const dialogs: string[] = []
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    await page.goto(`${hostile.url}/quickstart`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('Show me everything')
    await page.keyboard.press('Enter')
    const answer = chat.locator('article.assistant .answer')
    await chat.locator('article.assistant .actions').waitFor()

    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(dialogs).toEqual([])
    const injected = await answer.evaluate((root) => ({
      elements: root.querySelectorAll('img, script, iframe, svg, object, embed, style').length,
      handlers: [...root.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => a.name.startsWith('on'))).length,
      hrefs: [...root.querySelectorAll('a')].map((a) => a.getAttribute('href')),
    }))
    expect(injected.elements).toBe(0)
    expect(injected.handlers).toBe(0)
    expect(injected.hrefs.every((href) => /^https?:/.test(href ?? ''))).toBe(true)
    expect(injected.hrefs).toContain(`${hostile.url}/quickstart`)
    const text = await answer.innerText()
    expect(text).toContain('<img src=x onerror="window.__pwned=1">')
    expect(text).toContain('<script>window.__pwned=2</script>')
    expect(text).toContain('markdown link')

    // The rest of the markdown still renders: a table, and a code block whose copy button copies the code.
    expect(await answer.locator('table td').allInnerTexts()).toEqual(['Team', '$20'])
    await answer.getByRole('button', { name: 'Copy code' }).click()
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe('const flag = client.variation("new-checkout", false)')
    await chat.getByRole('button', { name: 'Copy answer' }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(HOSTILE)
    await context.close()
  })

  it('shows a 429 as a readable message with the wait, and offers no Retry that cannot help', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.goto(`${limited.url}/`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('What is a flag?')
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant .actions').waitFor()

    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.url().includes('/discovery/v2/assistant/demo/message')),
      chat
        .getByRole('textbox')
        .fill('And a segment?')
        .then(() => page.keyboard.press('Enter')),
    ])
    expect(refused.status()).toBe(429)
    const retryAfter = Number(refused.headers()['retry-after'])
    expect(retryAfter).toBeGreaterThan(0)
    const alert = chat.getByRole('alert')
    await alert.waitFor()
    expect(await alert.innerText()).toMatch(/Too many questions right now\. Try again in \d+ (seconds?|minutes?|hours)\./)
    // The question stays in the conversation; asking again before the wait is over cannot help, so no Retry.
    expect(await chat.locator('.message.user').last().innerText()).toBe('And a segment?')
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    await context.close()
  })

  it('offers no Retry when the site’s key is refused (only the site can fix that)', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.route('**/wrong-key', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><body><h1>Docs</h1>
          <script src="/widget/docent.js" data-domain="demo" data-api-key="svc_dsc_wrong"></script></body></html>`,
      }),
    )
    await page.goto(`${hostile.url}/wrong-key`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('What is a flag?')
    await page.keyboard.press('Enter')
    const alert = chat.getByRole('alert')
    await alert.waitFor()
    expect(await alert.innerText()).toContain('This site’s assistant key was refused (401')
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    await context.close()
  })

  it('shows the support hand-off with an answer the server marks unanswered, and only then', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    let unanswered = true
    // The server's finish chunk carries `resolution`; this server's scripted model writes the same hostile text for
    // every question, so the test sets the resolution in the real stream to the one each step needs.
    await context.route('**/discovery/v2/assistant/demo/message', async (route) => {
      const response = await route.fetch()
      const resolution = `"resolution":"${unanswered ? 'unanswered' : 'answered'}"`
      const body = (await response.text()).replace(
        /("type":"finish"[^\n]*"messageMetadata":\{)([^}]*)\}/,
        (_all, start: string, fields: string) => {
          const others = fields.replace(/,?"resolution":"\w+"/, '').replace(/^,/, '')
          return `${start}${others ? `${others},` : ''}${resolution}}`
        },
      )
      await route.fulfill({ response, body })
    })
    await page.goto(`${hostile.url}/`)
    const chat = page.locator('docent-chat')
    await chat.evaluate((el) => el.setAttribute('support-url', 'mailto:help@lumen.example?subject=Docs'))
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('Can I pay with goats?')
    await page.keyboard.press('Enter')
    const support = chat.locator('article.assistant .support')
    await support.waitFor()
    expect(await support.innerText()).toContain('The docs may not cover this.')
    expect(await support.getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('mailto:help@lumen.example?subject=Docs')
    unanswered = false
    await chat.getByRole('textbox').fill('How do I start?')
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant').nth(1).locator('.actions').waitFor()
    expect(await chat.locator('article.assistant .support').count()).toBe(1)
    await context.close()
  })
})
