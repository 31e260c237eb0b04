import { describe, expect, it } from 'vitest'
import { EventsBody } from '../../shared/events.ts'
import { answerFinished, browserSkipReason, focusedInWidget, savedConversation, storedThread, widgetOnDemoSite } from './support.ts'

// What readers of other docs widgets expect, in Chromium against a real Docent (offline answer model): keyboard-only
// use from the host page, search as you type, past conversations over a reload, a comment on 👎 that reaches the
// feedback API, events and hooks for the page, the panel back after following a source, languages, layouts, the JS API.

const skip = browserSkipReason()

describe.skipIf(skip)('<docent-chat> for readers', () => {
  const demo = widgetOnDemoSite()

  /** A page of the demo site, with the events endpoint answered (204) and recorded: the demo.server adds it separately. */
  const visit = async (path: string) => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
      reducedMotion: 'reduce',
    })
    const events: EventsBody['events'] = []
    await context.route('**/discovery/v1/events/demo', async (route) => {
      events.push(...EventsBody.parse(JSON.parse(route.request().postData() ?? '{}')).events)
      await route.fulfill({ status: 204 })
    })
    const searches: Array<Record<string, unknown>> = []
    context.on('request', (request) => {
      if (request.url().endsWith('/discovery/v1/search/demo')) {
        searches.push(JSON.parse(request.postData() ?? '{}'))
      }
    })
    const page = await context.newPage()
    await page.goto(`${demo.server.url}${path}`)
    const chat = page.locator('docent-chat')
    await chat.locator('.launcher').waitFor()
    return { context, page, chat, events, searches }
  }
  const threadOf = (threadId: string) => storedThread(demo.server, threadId)

  it('works from the keyboard alone: the launcher is among the first tab stops, then ask, read the sources, close', async () => {
    const { context, page, chat } = await visit('/quickstart')
    let tabs = 0
    do {
      await page.keyboard.press('Tab')
      tabs++
    } while ((await focusedInWidget(page)) !== 'button.launcher' && tabs < 5)
    expect(await focusedInWidget(page)).toBe('button.launcher')
    expect(tabs).toBeLessThanOrEqual(2)
    await page.keyboard.press('Enter')
    await expect.poll(() => focusedInWidget(page)).toBe('textarea.question')
    await page.keyboard.type('How do I create my first flag?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    // Tab reaches the answer's links and buttons without leaving the panel.
    const seen = new Set<string>()
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab')
      seen.add((await focusedInWidget(page)) ?? 'outside')
    }
    expect(seen.has('outside')).toBe(false)
    expect([...seen].some((name) => name.startsWith('a'))).toBe(true)
    expect(seen.has('button.icon')).toBe(true)
    await page.keyboard.press('Escape')
    await chat.getByRole('dialog').waitFor({ state: 'detached' })
    expect(await focusedInWidget(page)).toBe('button.launcher')
    await context.close()
  })

  it('searches as the reader types (analytics off per keystroke), reports the settled search and the result click, opens the page', async () => {
    const { context, page, chat, events, searches } = await visit('/quickstart')
    await page.keyboard.press('Control+k')
    const box = chat.getByRole('combobox')
    await box.waitFor()
    await expect.poll(() => focusedInWidget(page)).toBe('input')
    // The results shown while typing may be an earlier keystroke's: wait for the answer to the whole query.
    const finalResults = page.waitForResponse(
      (response) =>
        response.url().endsWith('/discovery/v1/search/demo') && response.request().postDataJSON()?.query === 'percentage rollout',
    )
    await box.pressSequentially('percentage rollout', { delay: 20 })
    const found = (await (await finalResults).json()) as Array<{ path: string }>
    const options = chat.getByRole('listbox').getByRole('option')
    await expect.poll(() => chat.locator('[role="option"][part="result"]').count()).toBe(new Set(found.map((result) => result.path)).size)
    expect(await options.first().innerText()).toContain('Ask AI: “percentage rollout”')
    expect(searches.length).toBeGreaterThan(0)
    expect(searches.every((body) => body.analytics === false)).toBe(true)
    // One entry per page.
    const titles = await chat.locator('[role="option"][part="result"] .title').allInnerTexts()
    expect(new Set(titles).size).toBe(titles.length)
    await page.keyboard.press('ArrowDown')
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true')
    expect(await box.getAttribute('aria-activedescendant')).toBe('docent-option-1')
    await Promise.all([page.waitForURL((url) => url.pathname !== '/quickstart'), page.keyboard.press('Enter')])
    await expect.poll(() => events.map((event) => event.type)).toEqual(['search', 'search_result_click'])
    expect(events[0]).toMatchObject({
      type: 'search',
      query: 'percentage rollout',
      resultCount: titles.length,
    })
    expect(events[1]).toMatchObject({
      type: 'search_result_click',
      query: 'percentage rollout',
      position: 1,
    })
    expect(new URL(page.url()).pathname).toBe(`/${events[1]!.path}`)
    await context.close()
  })

  it('asks the assistant from the search box', async () => {
    const { context, page, chat } = await visit('/quickstart')
    await page.keyboard.press('Control+k')
    await chat.getByRole('combobox').fill('What is a segment?')
    await chat.getByRole('option', { name: /Ask AI/ }).waitFor()
    await page.keyboard.press('Enter')
    await answerFinished(page)
    expect(await chat.locator('.message.user').innerText()).toBe('What is a segment?')
    await context.close()
  })

  it('keeps past conversations over a reload, and continues the one reopened', async () => {
    const { context, page, chat } = await visit('/quickstart')
    await page.keyboard.press('Control+i')
    await chat.getByRole('textbox').fill('What is a flag?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    const first = (await savedConversation(page))!.threadId!
    await chat.getByRole('button', { name: 'New conversation' }).click()
    await chat.getByRole('textbox').fill('What is an environment?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    await page.reload()
    await chat.locator('.launcher').click()
    await expect.poll(() => chat.locator('.message.user').innerText()).toBe('What is an environment?')
    await chat.getByRole('button', { name: 'Past conversations' }).click()
    const list = chat.getByRole('list', { name: 'Past conversations' }).getByRole('listitem')
    expect(await list.count()).toBe(2)
    expect(await list.allInnerTexts()).toEqual([
      expect.stringContaining('What is an environment?'),
      expect.stringContaining('What is a flag?'),
    ])
    await list.nth(1).getByRole('button').first().click()
    await expect.poll(() => chat.locator('.message.user').first().innerText()).toBe('What is a flag?')
    await chat.getByRole('textbox').fill('And how do I delete one?')
    await page.keyboard.press('Enter')
    await answerFinished(page, 2)
    expect((await savedConversation(page))!.threadId).toBe(first)
    expect((await threadOf(first)).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    // Deleting removes it from the list.
    await chat.getByRole('button', { name: 'Past conversations' }).click()
    await list
      .nth(1)
      .getByRole('button', { name: /Delete conversation/ })
      .click()
    await expect.poll(() => list.count()).toBe(1)
    await context.close()
  })

  it('sends 👎 with a comment to the feedback API, and fires the page’s events and hooks', async () => {
    const { context, page, chat } = await visit('/concepts/flags')
    await page.evaluate(() => {
      const w = window as unknown as {
        seen: string[]
        Docent: {
          on(name: string, fn: (detail: Record<string, unknown>) => void): () => void
        }
      }
      w.seen = []
      for (const name of ['open', 'close', 'message', 'feedback', 'sourceClick', 'error']) {
        w.Docent.on(name, (detail) => w.seen.push(`${name}:${JSON.stringify(detail)}`))
      }
      document.addEventListener('docent-message', () => w.seen.push('dom:docent-message'))
    })
    await page.keyboard.press('Control+i')
    await chat.getByRole('textbox').fill('What is a flag?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    await chat.getByRole('button', { name: 'Not helpful' }).click()
    const form = chat.locator('form.feedback-form')
    await form.getByRole('textbox', { name: 'What was wrong or missing?' }).fill('It does not say how to archive a flag.')
    const [feedback] = await Promise.all([
      page.waitForRequest((request) => request.url().endsWith('/feedback') && (request.postData() ?? '').includes('archive')),
      form.getByRole('button', { name: 'Send' }).click(),
    ])
    expect(JSON.parse(feedback.postData()!)).toMatchObject({
      rating: 'down',
      comment: 'It does not say how to archive a flag.',
    })
    const { threadId } = (await savedConversation(page))!
    await expect
      .poll(async () => (await threadOf(threadId!)).messages.find((m) => m.role === 'assistant')?.feedback)
      .toEqual({
        rating: 'down',
        comment: 'It does not say how to archive a flag.',
      })
    const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen)
    // The comment's event fires when the browser has the feedback API's answer, which may come after the store has it.
    await expect.poll(async () => (await seen()).filter((line) => line.startsWith('feedback:')).length).toBe(2)
    await page.keyboard.press('Escape')
    await expect.poll(async () => (await seen()).at(-1)).toBe('close:{}')
    const lines = await seen()
    expect(lines[0]).toBe('open:{"mode":"chat"}')
    expect(lines).toContain('dom:docent-message')
    const message = JSON.parse(lines.find((line) => line.startsWith('message:'))!.slice('message:'.length))
    expect(message).toMatchObject({
      threadId,
      end: 'complete',
      text: expect.stringMatching(/\S/),
    })
    expect(message.sources.length).toBeGreaterThan(0)
    await context.close()
  })

  it('reports a source click, and the panel is open again on the page the source leads to', async () => {
    const { context, page, chat, events } = await visit('/quickstart')
    const clicks: unknown[] = []
    await page.exposeFunction('sourceClicked', (detail: unknown) => clicks.push(detail))
    await page.evaluate(() =>
      (
        window as unknown as {
          Docent: { on(name: string, fn: (d: unknown) => void): void }
        }
      ).Docent.on('sourceClick', (detail) => (window as unknown as { sourceClicked(d: unknown): void }).sourceClicked(detail)),
    )
    await page.keyboard.press('Control+i')
    await chat.getByRole('textbox').fill('How do percentage rollouts work?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    const source = chat.getByRole('navigation', { name: 'Sources' }).getByRole('link').first()
    const href = (await source.getAttribute('href'))!
    await Promise.all([page.waitForURL(href), source.click()])
    await chat.getByRole('dialog').waitFor()
    expect(await chat.locator('.message.user').innerText()).toBe('How do percentage rollouts work?')
    expect(clicks).toEqual([expect.objectContaining({ url: href, position: expect.any(Number) })])
    await expect.poll(() => events.filter((event) => event.type === 'source_click').length).toBe(1)
    await context.close()
  })

  it('speaks the page’s language (<html lang>), and the page can override any text', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.route('**/fr/guide', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="fr-FR"><body><h1>Guide</h1>
          <script src="/widget/docent.js" data-domain="demo" data-api-key="${demo.server.assistantKey}"></script></body></html>`,
      }),
    )
    await page.goto(`${demo.server.url}/fr/guide`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Demander à l’IA/ }).click()
    await chat.getByRole('dialog', { name: 'Interroger la documentation' }).waitFor()
    expect(await chat.getByRole('textbox').getAttribute('placeholder')).toBe('Posez une question sur la documentation…')
    await page.evaluate(() => (document.querySelector('docent-chat') as HTMLElement).setAttribute('lang', 'de'))
    await chat.getByRole('button', { name: 'Neue Unterhaltung' }).waitFor()
    await page.evaluate(() => (document.querySelector('docent-chat') as HTMLElement).setAttribute('labels', '{"newThread":"Von vorn"}'))
    await chat.getByRole('button', { name: 'Von vorn' }).waitFor()
    await context.close()
  })

  it('keeps the page’s own shortcuts in its fields, sizes the composer back after sending, and turns the selection pill off', async () => {
    const { context, page, chat } = await visit('/concepts/flags')
    // Ctrl+I typed in a field of the page (italics in an editor) is the page's.
    await page.evaluate(() => {
      const field = document.createElement('textarea')
      field.id = 'host-field'
      document.body.append(field)
    })
    await page.locator('#host-field').focus()
    await page.keyboard.press('Control+i')
    await page.keyboard.press('Control+k')
    expect(await chat.getByRole('dialog').count()).toBe(0)

    await chat.locator('.launcher').click()
    const box = chat.getByRole('textbox')
    expect(await box.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(16)
    const oneLine = await box.evaluate((el) => el.getBoundingClientRect().height)
    await box.fill('')
    await box.pressSequentially(`${'A long question about flags. '.repeat(8)}`)
    expect(await box.evaluate((el) => el.getBoundingClientRect().height)).toBeGreaterThan(oneLine)
    await page.keyboard.press('Enter')
    await expect.poll(() => box.evaluate((el) => el.getBoundingClientRect().height)).toBe(oneLine)
    await page.keyboard.press('Escape')

    const select = () =>
      page.evaluate(() => {
        const range = document.createRange()
        range.selectNodeContents(document.querySelector('.prose p')!)
        document.getSelection()!.removeAllRanges()
        document.getSelection()!.addRange(range)
      })
    await select()
    await chat.getByRole('button', { name: 'Ask about selection' }).waitFor()
    await page.evaluate(() => document.getSelection()!.removeAllRanges())
    await page.evaluate(() => (document.querySelector('docent-chat') as HTMLElement).setAttribute('ask-selection', 'false'))
    await select()
    await page.waitForTimeout(400)
    expect(await chat.getByRole('button', { name: 'Ask about selection' }).count()).toBe(0)
    await context.close()
  })

  it('has one dialog and no second banner, labels the reader’s messages, and shows the shortcut of the platform', async () => {
    const { context, page, chat } = await visit('/quickstart')
    expect(await chat.locator('kbd').innerText()).toBe('Ctrl+I')
    await chat.locator('.launcher').click()
    await chat.getByRole('textbox').fill('What is a flag?')
    await page.keyboard.press('Enter')
    await answerFinished(page)
    expect(await chat.getByRole('banner').count()).toBe(0)
    expect(await chat.getByRole('article', { name: 'You' }).count()).toBe(1)
    expect(await chat.getByRole('log').getAttribute('aria-live')).toBe('off')
    await context.close()

    const mac = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const macPage = await mac.newPage()
    await macPage.addInitScript(() => Object.defineProperty(navigator, 'platform', { get: () => 'MacIntel' }))
    await macPage.goto(`${demo.server.url}/quickstart`)
    const launcher = macPage.locator('docent-chat .launcher')
    expect(await launcher.locator('kbd').innerText()).toBe('⌘I')
    expect(await launcher.getAttribute('aria-keyshortcuts')).toBe('Meta+I')
    await mac.close()
  })

  it('lays out as a full-height side panel on either side, with the launcher where the page puts it', async () => {
    const { context, page, chat } = await visit('/quickstart')
    await page.evaluate(() => {
      const el = document.querySelector('docent-chat')!
      el.setAttribute('variant', 'sidepanel')
      el.setAttribute('side', 'left')
      el.setAttribute('align', 'center')
    })
    const launcher = await chat.locator('.launcher').boundingBox()
    expect(launcher!.x).toBeLessThan(40)
    expect(Math.abs(launcher!.y + launcher!.height / 2 - 400)).toBeLessThan(4)
    await chat.locator('.launcher').click()
    const panel = await chat.locator('section.panel').boundingBox()
    expect(panel).toMatchObject({ x: 0, y: 0, height: 800 })
    await context.close()
  })

  it('is set up, changed and removed from script: Docent.init, update, destroy', async () => {
    const context = await demo.browser.newContext()
    const page = await context.newPage()
    await page.route('**/blank', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><body><h1>Docs</h1>
          <script src="/widget/docent.js"></script>
          <script>Docent.init({ domain: 'demo', apiKey: '${demo.server.assistantKey}', theme: 'dark' })</script></body></html>`,
      }),
    )
    await page.goto(`${demo.server.url}/blank`)
    const chat = page.locator('docent-chat')
    await chat.locator('.launcher').waitFor()
    expect(await chat.getAttribute('scheme')).toBe('dark')
    await page.evaluate(() =>
      (window as unknown as { Docent: { update(o: object): void } }).Docent.update({ theme: 'light', labels: { launcher: 'Help' } }),
    )
    await chat.getByRole('button', { name: /^Help/ }).waitFor()
    expect(await chat.getAttribute('scheme')).toBe('light')
    await page.evaluate(() => (window as unknown as { Docent: { destroy(): void } }).Docent.destroy())
    expect(await page.locator('docent-chat').count()).toBe(0)
    await page.evaluate(() =>
      (window as unknown as { Docent: { init(o: object): void } }).Docent.init({
        domain: 'demo',
      }),
    )
    await page.locator('docent-chat .launcher').waitFor()
    await context.close()
  })
})
