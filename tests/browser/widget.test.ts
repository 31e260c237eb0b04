import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  browserSkipReason,
  ensureWidgetBuilt,
  focusedInWidget,
  launchBrowser,
  recordAssistantRequests,
  type RunningDocent,
  savedConversation,
  serveStatic,
  startDocent,
  widgetOnDemoSite,
} from './support.ts'

// The widget in Debian's chromium against a real Docent server (offline answer model): keyboard, starter
// questions, streamed answers with sources, the thread kept over a reload, new threads, selection context, feedback.

const skip = browserSkipReason()

describe.skipIf(skip)('<docent-chat> on the demo site', () => {
  const demo = widgetOnDemoSite()

  const answers = (page: Page) => page.locator('docent-chat article.assistant')
  /** Waits until `count` answers have finished (their action buttons appear once streaming ends). */
  const waitForAnswers = (page: Page, count: number) =>
    answers(page)
      .nth(count - 1)
      .locator('.actions')
      .waitFor()
  const saved = (page: Page) => savedConversation(page)
  const threadOf = async (threadId: string) => {
    const response = await fetch(`${demo.server.url}/v2/assistant/demo/threads/${threadId}`, {
      headers: { authorization: `Bearer ${demo.server.adminKey}` },
    })
    expect(response.status).toBe(200)
    return (await response.json()) as {
      messages: Array<{
        id: string
        role: string
        content: string
        feedback?: { rating: string }
      }>
    }
  }

  it('colours code by theme: light, dark by attribute, dark by the system unless theme="light", and a colour the page sets', async () => {
    const codeColour = async (options: { colorScheme: 'light' | 'dark'; theme?: string; pageColour?: string }) => {
      const context = await demo.browser.newContext({
        viewport: { width: 1280, height: 800 },
        colorScheme: options.colorScheme,
      })
      const page = await context.newPage()
      await page.goto(`${demo.server.url}/quickstart`)
      const chat = page.locator('docent-chat')
      await chat.getByRole('button', { name: /Ask AI/ }).waitFor()
      await chat.evaluate((el, { theme, pageColour }) => {
        if (theme) el.setAttribute('theme', theme)
        if (pageColour) {
          ;(el as HTMLElement).style.setProperty('--docent-code-string', pageColour)
        }
      }, options)
      await page.keyboard.press('Control+i')
      await chat.getByRole('dialog').waitFor()
      const colour = await chat.evaluate((el) => {
        const span = document.createElement('span')
        span.className = 'tok-string'
        el.shadowRoot!.querySelector('docent-panel')!.shadowRoot!.append(span)
        return getComputedStyle(span).color
      })
      await context.close()
      return colour
    }
    expect(await codeColour({ colorScheme: 'light' })).toBe('rgb(15, 123, 63)')
    expect(await codeColour({ colorScheme: 'light', theme: 'dark' })).toBe('rgb(134, 239, 172)')
    expect(await codeColour({ colorScheme: 'dark' })).toBe('rgb(134, 239, 172)')
    expect(await codeColour({ colorScheme: 'dark', theme: 'light' })).toBe('rgb(15, 123, 63)')
    expect(await codeColour({ colorScheme: 'dark', pageColour: 'rgb(255, 0, 0)' })).toBe('rgb(255, 0, 0)')
  })

  it('opens with Ctrl+I, answers a starter question with sources, keeps the thread over a reload, and starts a new thread', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const sent = recordAssistantRequests(context)
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${demo.server.url}/quickstart`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()

    // Keyboard: Ctrl+I opens the dialog with the question box focused; Tab stays inside; Esc closes and returns focus.
    await page.locator('h1').click()
    await page.keyboard.press('Control+i')
    const dialog = chat.getByRole('dialog', { name: 'Ask Lumen Flags' })
    await dialog.waitFor()
    await expect.poll(() => focusedInWidget(page)).toBe('textarea.question')
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab')
    expect(await focusedInWidget(page)).not.toBeNull()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await focusedInWidget(page)).toBe('button.launcher')
    // Opened from a link in the page, closing returns focus to that link.
    await page.locator('.sidebar a[href="/concepts/flags"]').focus()
    await page.keyboard.press('Control+i')
    await dialog.waitFor()
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/concepts/flags')
    await page.keyboard.press('Control+i')
    await dialog.waitFor()

    // A starter question, answered from the docs with sources linking to the site's pages.
    const starters = chat.getByRole('list', { name: 'Suggested questions' }).getByRole('button')
    expect(await starters.count()).toBeLessThanOrEqual(3)
    await chat.getByRole('button', { name: 'How do I get started?' }).click()
    await waitForAnswers(page, 1)
    const answer = answers(page).first()
    expect((await answer.locator('.answer').innerText()).length).toBeGreaterThan(40)
    const sources = answer.getByRole('navigation', { name: 'Sources' }).getByRole('link')
    expect(await sources.count()).toBeGreaterThan(0)
    const href = (await sources.first().getAttribute('href'))!
    expect(href.startsWith(`${demo.server.url}/`)).toBe(true)
    expect(
      (
        await fetch(href.replace(/#.*$/, ''), {
          headers: { accept: 'text/html' },
        })
      ).status,
    ).toBe(200)
    await expect.poll(() => chat.locator('[aria-live="polite"]').innerText()).toMatch(/^Answer: /)
    expect(sent[0]).toMatchObject({
      fp: expect.stringMatching(/^fp_/),
      threadId: null,
      currentPath: '/quickstart',
      retrievalPageSize: 5,
    })

    const first = await saved(page)
    expect(first?.threadId).toMatch(/\S/)
    expect(first?.messages).toHaveLength(2)
    const threadId = first!.threadId!

    // Reload: the conversation is restored and the next question continues the same thread.
    await page.reload()
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()
    await page.keyboard.press('Control+i')
    await dialog.waitFor()
    await answers(page).first().waitFor()
    expect(await chat.locator('.message.user').first().innerText()).toBe('How do I get started?')
    await chat.getByRole('textbox').fill('How do I install the JavaScript SDK?')
    await page.keyboard.press('Enter')
    await waitForAnswers(page, 2)
    expect(sent[1]).toMatchObject({ threadId })
    expect((sent[1]!.messages as unknown[]).length).toBe(3)
    expect((await saved(page))?.threadId).toBe(threadId)
    expect((await threadOf(threadId)).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])

    // New thread: the conversation is cleared and the next question starts another thread.
    await chat.getByRole('button', { name: 'New conversation' }).click()
    await chat.getByRole('button', { name: 'How do I get started?' }).waitFor()
    expect(await answers(page).count()).toBe(0)
    expect((await saved(page))?.threadId ?? null).toBeNull()
    await chat.getByRole('textbox').fill('What is a segment?')
    await chat.getByRole('button', { name: 'Send' }).click()
    await waitForAnswers(page, 1)
    expect(sent[2]).toMatchObject({ threadId: null })
    expect((sent[2]!.messages as unknown[]).length).toBe(1)
    const next = (await saved(page))?.threadId
    expect(next).toMatch(/\S/)
    expect(next).not.toBe(threadId)
    expect(errors).toEqual([])
    await context.close()
  })

  it('sends selected page text as context, and a thumbs-up reaches the feedback endpoint', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const sent = recordAssistantRequests(context)
    const page = await context.newPage()
    await page.goto(`${demo.server.url}/concepts/flags`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()

    const selected = await page.evaluate(() => {
      const paragraph = document.querySelector('.prose p')!
      const range = document.createRange()
      range.selectNodeContents(paragraph)
      document.getSelection()!.removeAllRanges()
      document.getSelection()!.addRange(range)
      return document.getSelection()!.toString().trim()
    })
    await chat.getByRole('button', { name: 'Ask about selection' }).click()
    await chat.getByRole('dialog').waitFor()
    expect(await chat.locator('.chip').innerText()).toContain(selected.slice(0, 40))
    await chat.getByRole('textbox').fill('What does this mean?')
    await page.keyboard.press('Enter')
    await waitForAnswers(page, 1)
    expect(sent[0]!.context).toEqual([
      {
        type: 'textSelection',
        value: selected,
        path: '/concepts/flags',
      },
    ])
    expect(await chat.locator('.chip').count()).toBe(0)

    const helpful = answers(page).first().getByRole('button', {
      name: 'Helpful',
      exact: true,
    })
    const [feedback] = await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/discovery/v1/assistant/demo/feedback')),
      helpful.click(),
    ])
    expect(feedback.status()).toBe(204)
    expect(await helpful.getAttribute('aria-pressed')).toBe('true')
    const { threadId } = (await saved(page))!
    const stored = await threadOf(threadId!)
    const assistant = stored.messages.find((message) => message.role === 'assistant')!
    expect(assistant.feedback).toMatchObject({ rating: 'up' })
    await context.close()
  })

  it('says so when the panel cannot load (network down), and loads it on retry', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.goto(`${demo.server.url}/`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()
    await context.route('**/widget/chunks/panel-*', (route) => route.abort('internetdisconnected'))
    // Waits for the refused download itself, then for the message (it used to be one wait that a slow run could miss).
    // Opened by a click, not the keyboard shortcut: in one CI run the shortcut version timed out with no panel request
    // seen (why was not found; it passed alone). A click on the launcher always asks for the panel. The shortcut has
    // its own tests in widget-reader.test.ts.
    await Promise.all([
      page.waitForEvent('requestfailed', {
        predicate: (request) => request.url().includes('/chunks/panel-'),
        timeout: 60_000,
      }),
      chat.getByRole('button', { name: /Ask AI/ }).click(),
    ])
    const alert = chat.getByRole('alert')
    await alert.waitFor({ timeout: 60_000 })
    expect(await alert.innerText()).toContain('Could not reach the assistant')
    await context.unroute('**/widget/chunks/panel-*')
    await alert.getByRole('button', { name: 'Retry' }).click()
    await chat.getByRole('dialog').waitFor()
    await context.close()
  })

  it('works as a modal with window.Docent, and inline in the page', async () => {
    const context = await demo.browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.goto(`${demo.server.url}/`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).waitFor()
    await page.evaluate(
      () =>
        ((
          document.querySelector('docent-chat') as HTMLElement & {
            variant: string
          }
        ).variant = 'modal'),
    )
    await page.evaluate(() => (window as unknown as { Docent: { open(): Promise<void> } }).Docent.open())
    const dialog = chat.getByRole('dialog')
    expect(await dialog.getAttribute('aria-modal')).toBe('true')
    await chat.locator('.backdrop').click({ position: { x: 5, y: 5 } })
    await dialog.waitFor({ state: 'detached' })
    // The top bar's "Ask AI" search box opens it too (`data-docent-open`).
    await page.getByRole('button', { name: /Ask AI about/ }).click()
    await dialog.waitFor()
    await page.evaluate(() => (window as unknown as { Docent: { close(): void } }).Docent.close())
    await dialog.waitFor({ state: 'detached' })

    await page.evaluate(
      () =>
        ((
          document.querySelector('docent-chat') as HTMLElement & {
            variant: string
          }
        ).variant = 'inline'),
    )
    const region = chat.getByRole('region', { name: 'Ask Lumen Flags' })
    await region.waitFor()
    await page.evaluate(() => (window as unknown as { Docent: { ask(text: string): Promise<void> } }).Docent.ask('What is an environment?'))
    await waitForAnswers(page, 1)
    await context.close()
  })
})

describe.skipIf(skip)('<docent-chat> embedded on another origin', () => {
  let browser: Browser
  let server: RunningDocent
  let site: Awaited<ReturnType<typeof serveStatic>>
  const dir = mkdtempSync(join(tmpdir(), 'docent-embed-'))

  beforeAll(async () => {
    await ensureWidgetBuilt()
    ;[browser, server] = await Promise.all([launchBrowser(), startDocent()])
    const page = readFileSync('demo/site/embed-example.html', 'utf8')
      .replaceAll('http://localhost:8787', server.url)
      .replace('svc_dsc_REPLACE_WITH_YOUR_ASSISTANT_KEY', server.assistantKey)
    writeFileSync(join(dir, 'index.html'), page)
    site = await serveStatic(dir)
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([server?.stop(), site?.close()])
    rmSync(dir, { recursive: true, force: true })
  })

  it('mounts from one script tag (data-* attributes), themed by the page, and answers across origins', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`${site.url}/`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: 'Ask AI' }).waitFor()
    const accent = await chat.locator('.launcher').evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(accent).toBe('rgb(15, 118, 110)')
    await page.getByRole('button', { name: 'Ask a question' }).click()
    await chat.getByRole('dialog', { name: 'Ask the docs' }).waitFor()
    await chat.getByRole('button', { name: 'How do percentage rollouts work?' }).click()
    await chat.locator('article.assistant .actions').waitFor()
    expect(await chat.locator('article.assistant nav a').count()).toBeGreaterThan(0)
    expect(errors).toEqual([])
    await page.close()
  })
})
