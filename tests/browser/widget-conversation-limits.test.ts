import { createServer, type Server } from 'node:http'
import type { Browser, Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeServer, listenLocal } from '../support/local-http.ts'
import {
  answerFinished,
  browserSkipReason,
  DEMO_PROJECT,
  ensureWidgetBuilt,
  launchBrowser,
  recordAssistantRequests,
  type RunningDocent,
  savedConversation,
  startDocent,
  storedThread,
} from './support.ts'

// A customer's docs site on its own origin embeds the widget of a Docent on another: what readers get at the API's
// bounds (a long conversation, a pasted megabyte), with answers Docent would never send (a proxy's HTML, a garbled
// stream), with the site's storage blocked, and with the owner's set-up wrong (origin not allowed, wrong domain, no
// api-base). The reader always gets a plain sentence and a way on; the site's developer gets a `Docent:` hint.

const skip = browserSkipReason()

interface Message {
  id: string
  role: string
  parts: Array<{ type: string; text?: string }>
}

describe.skipIf(skip)('<docent-chat> at the API’s bounds and with unexpected answers', () => {
  let browser: Browser
  let docent: RunningDocent
  let site: Server
  let siteUrl = ''

  /** The docs site: its page embeds the widget (query: `domain`, `apiBase`, `noApiBase`); a POST gets its HTML, as a docs host's fallback does. */
  const pageHtml = (query: URLSearchParams) => {
    const apiBase = query.has('noApiBase') ? '' : `data-api-base="${query.get('apiBase') ?? docent.url}"`
    return `<!doctype html><html lang="en"><head><title>Docs</title></head><body><h1>Docs</h1>
      <script src="${docent.url}/widget/docent.js" data-domain="${query.get('domain') ?? 'demo'}"
        data-api-key="${docent.assistantKey}" ${apiBase}></script></body></html>`
  }

  beforeAll(async () => {
    await ensureWidgetBuilt()
    site = createServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://site').searchParams
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(query))
    })
    siteUrl = await listenLocal(site)
    ;[browser, docent] = await Promise.all([
      launchBrowser(),
      startDocent({
        projects: [{ ...DEMO_PROJECT, allowedOrigins: [siteUrl] }],
      }),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await docent?.stop()
    if (site) await closeServer(site)
  })

  /** A page of the docs site (`url` relative to it, or another origin's) with the chat open; `Docent:` console lines kept. */
  const open = async (url: string, { blockStorage = false } = {}) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })
    if (blockStorage) {
      // As a browser that blocks third-party or all site data does: every use of localStorage throws.
      await context.addInitScript(() => {
        Object.defineProperty(window, 'localStorage', {
          get() {
            throw new DOMException('The operation is insecure.', 'SecurityError')
          },
        })
      })
    }
    const requests = recordAssistantRequests(context)
    const page = await context.newPage()
    const warnings: string[] = []
    page.on('console', (message) => {
      if (message.text().startsWith('Docent:')) warnings.push(message.text())
    })
    await page.goto(url.startsWith('http') ? url : `${siteUrl}${url}`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('dialog').waitFor()
    const ask = async (question: string) => {
      await chat.getByRole('textbox').fill(question)
      await page.keyboard.press('Enter')
    }
    return { context, page, chat, requests, warnings, ask }
  }
  const threadOf = (threadId: string) => storedThread(docent, threadId)
  const textOf = (message: Message) => message.parts.map((part) => part.text ?? '').join('')
  /** The message POST answered by `fulfill` (the preflight goes to the real server, which grants this origin). */
  const answerWith = (page: Page, fulfill: (route: Route) => Promise<void>) =>
    page.route('**/discovery/v2/assistant/demo/message', (route) =>
      route.request().method() === 'OPTIONS' ? route.continue() : fulfill(route),
    )
  const grant = () => ({ 'access-control-allow-origin': siteUrl })

  it('goes on with a conversation past 100,000 characters: the oldest turns are left out of the request, the thread is kept', async () => {
    const first = await open('/guide')
    await first.ask('How do I create my first flag?')
    await answerFinished(first.page, 1)
    const threadId = (await savedConversation(first.page))!.threadId!
    expect(threadId).toMatch(/^thr_/)
    // Closed before the stored conversation is grown: leaving the page saves the conversation it has open.
    await first.page.close()
    const page = await first.context.newPage()
    await page.goto(`${siteUrl}/guide`)
    // 58 earlier turns of 2,000 characters: 116,000 with the rest, over the API's 100,000.
    await page.evaluate(() => {
      const key = `docent:demo:conversation:${localStorage.getItem('docent:demo:current')}`
      const saved = JSON.parse(localStorage.getItem(key)!)
      const earlier = Array.from({ length: 58 }, (_, n) => ({
        id: `earlier_${n}`,
        role: n % 2 === 0 ? 'user' : 'assistant',
        parts: [{ type: 'text', text: `${n} ${'x'.repeat(2000)}` }],
      }))
      localStorage.setItem(key, JSON.stringify({ ...saved, messages: [...earlier, ...saved.messages] }))
    })
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.locator('article.assistant').nth(29).waitFor()
    await chat.getByRole('textbox').fill('And how do I roll it out to a percentage of users?')
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant').nth(30).locator('.actions').waitFor()
    expect(await chat.getByRole('alert').count()).toBe(0)
    const sent = first.requests.at(-1)!
    const messages = sent.messages as Message[]
    expect(sent.threadId).toBe(threadId)
    expect(messages.length).toBeLessThanOrEqual(100)
    expect(messages.reduce((sum, message) => sum + [...textOf(message)].length, 0)).toBeLessThanOrEqual(100_000)
    expect(messages[0]!.role).toBe('user')
    expect(textOf(messages.at(-1)!)).toBe('And how do I roll it out to a percentage of users?')
    expect((await savedConversation(page))!.threadId).toBe(threadId)
    expect((await threadOf(threadId)).messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual([
      'How do I create my first flag?',
      'And how do I roll it out to a percentage of users?',
    ])
    await first.context.close()
  })

  it('refuses a megabyte question before sending (from the page’s JS API too), says why, and stores nothing of it', async () => {
    const { context, page, chat, requests } = await open('/guide')
    await page.evaluate(() =>
      (document.querySelector('docent-chat') as unknown as { ask(text: string): Promise<void> }).ask('Why? '.repeat(216_000)),
    )
    const alert = chat.getByRole('alert')
    await alert.waitFor()
    expect(await alert.innerText()).toMatch(/too long: at most 100,000 characters/)
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    expect(requests).toHaveLength(0)
    const stored = await page.evaluate(() =>
      Object.keys(localStorage).reduce((sum, key) => sum + (localStorage.getItem(key) ?? '').length, 0),
    )
    expect(stored).toBeLessThan(10_000)
    await context.close()
  })

  it('shows a short sentence for a garbled stream, a proxy’s HTML page and an empty answer; the details go to the console', async () => {
    const cases = [
      { status: 200, contentType: 'text/event-stream', body: `data: {"type":"bogus"}\n\ndata: ${'{'.repeat(50)}\n\n` },
      { status: 500, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
      { status: 200, contentType: 'text/event-stream', body: '' },
    ]
    for (const answer of cases) {
      const { context, page, chat, warnings, ask } = await open('/guide')
      await answerWith(page, (route) => route.fulfill({ ...answer, headers: grant() }))
      await ask('What is a flag?')
      const alert = chat.getByRole('alert')
      await alert.waitFor()
      const shown = await alert.innerText()
      expect(shown, answer.body).toMatch(/^The assistant failed to answer( \(500\))?\.\s*Retry$/)
      // Nothing stays "searching" once the answer has failed.
      expect(await chat.getByRole('status').innerText()).not.toContain('Searching the docs')
      expect(warnings.join('\n')).toMatch(/^Docent: the assistant's answer failed/)
      expect(warnings.every((warning) => warning.length < 1200)).toBe(true)
      await context.close()
    }
  })

  it('marks an answer cut off by a failing stream once, with one Retry that works', async () => {
    const { context, page, chat, warnings, ask } = await open('/guide')
    const chunks = [
      { type: 'start', messageId: 'm_cut', messageMetadata: { threadId: 'thr_cut' } },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'Flags are' },
      { type: 'error', errorText: 'The answer was cut off: the model failed. Please try again.' },
    ]
    await answerWith(page, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/event-stream',
        headers: grant(),
        body: chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join(''),
      }),
    )
    await ask('What is a flag?')
    const ended = chat.locator('[part="ended"]')
    await ended.waitFor()
    expect(await ended.innerText()).toMatch(/^This answer was cut off\.\s*Retry$/)
    expect(await chat.getByRole('button', { name: 'Retry' }).count()).toBe(1)
    expect(await chat.getByRole('alert').count()).toBe(0)
    expect(await chat.getByText('The assistant failed to answer').count()).toBe(0)
    expect(warnings.join('\n')).toContain('the model failed')
    await page.unroute('**/discovery/v2/assistant/demo/message')
    await chat.getByRole('button', { name: 'Retry' }).click()
    await answerFinished(page, 1)
    expect(await ended.count()).toBe(0)
    await context.close()
  })

  it('deletes the open conversation from Past conversations at the first click', async () => {
    const { context, page, chat, ask } = await open('/guide')
    await ask('How do I create my first flag?')
    await answerFinished(page, 1)
    await chat.getByRole('button', { name: 'Past conversations' }).click()
    await chat.getByRole('button', { name: /^Delete conversation/ }).click()
    await chat.getByText('No past conversations yet.').waitFor()
    const storedConversations = () =>
      page.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('docent:demo:conversation:')).length)
    expect(await storedConversations()).toBe(0)
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('docent:demo:conversations') ?? '[]'))).toEqual([])
    await page.reload()
    expect(await storedConversations()).toBe(0)
    await context.close()
  })

  it('keeps one reader id and one thread for the page’s life when the site’s storage is blocked', async () => {
    const { context, page, chat, requests, ask } = await open('/guide', { blockStorage: true })
    const threadIds: string[] = []
    page.on('response', (response) => {
      const threadId = response.headers()['x-thread-id']
      if (threadId) threadIds.push(threadId)
    })
    await ask('How do I create my first flag?')
    await answerFinished(page, 1)
    await ask('And how do I roll it out?')
    await answerFinished(page, 2)
    expect(requests).toHaveLength(2)
    expect(requests[1]!.fp).toBe(requests[0]!.fp)
    expect(requests[1]!.threadId).toBe(threadIds[0])
    expect(threadIds[1]).toBe(threadIds[0])
    expect((await threadOf(threadIds[0]!)).messages).toHaveLength(4)
    // Past conversations lists it for this page view.
    await chat.getByRole('button', { name: 'Past conversations' }).click()
    await chat.getByRole('button', { name: /^How do I create my first flag\?/ }).waitFor()
    await context.close()
  })

  it('tells a misconfigured site apart from an outage: not set up (no Retry) and a hint in the console', async () => {
    const notAllowed = siteUrl.replace('127.0.0.1', 'localhost')
    const setups = [
      { url: `${notAllowed}/guide`, hint: /allowedOrigins/ },
      { url: '/guide?domain=nope.example', hint: /allowedOrigins.*data-domain/ },
      { url: '/guide?noApiBase', hint: /data-api-base/ },
    ]
    for (const setup of setups) {
      const { context, chat, warnings, ask } = await open(setup.url)
      await ask('What is a flag?')
      const alert = chat.getByRole('alert')
      await alert.waitFor()
      expect(await alert.innerText(), setup.url).toBe('The assistant is not set up for this site yet.')
      expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(0)
      expect(warnings.join('\n'), setup.url).toMatch(setup.hint)
      await context.close()
    }
    // The server down: the network's message, with Retry.
    const gone = createServer()
    const down = await listenLocal(gone)
    await closeServer(gone)
    const { context, chat, ask } = await open(`/guide?apiBase=${encodeURIComponent(down)}`)
    await ask('What is a flag?')
    const alert = chat.getByRole('alert')
    await alert.waitFor()
    expect(await alert.innerText()).toContain('Could not reach the assistant')
    expect(await alert.getByRole('button', { name: 'Retry' }).count()).toBe(1)
    await context.close()
  })
})
