import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSkipReason, ensureWidgetBuilt, launchBrowser, type RunningDocent, savedConversation, startDocent } from './support.ts'

// An intranet or staging docs site on plain HTTP under a real host name is not a secure context: no
// crypto.randomUUID, no async clipboard. (127.0.0.0/8 itself counts as secure, so the server listens on 127.0.0.2
// and Chromium resolves a made-up name to it.) The widget must open, answer and copy there as anywhere.

const skip = browserSkipReason()
const HOST = 'docs.intranet.test'

describe.skipIf(skip)('<docent-chat> on a plain-HTTP site that is not localhost', () => {
  let browser: Browser
  let server: RunningDocent

  beforeAll(async () => {
    await ensureWidgetBuilt()
    ;[browser, server] = await Promise.all([
      launchBrowser([`--host-resolver-rules=MAP ${HOST} 127.0.0.2`]),
      startDocent({}, {}, { hostname: '127.0.0.2' }),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('opens, answers, keeps the conversation and copies without a secure context', async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    const url = server.url.replace('127.0.0.2', HOST)
    await page.goto(`${url}/quickstart`)
    expect(await page.evaluate(() => [isSecureContext, typeof crypto.randomUUID])).toEqual([false, 'undefined'])
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('dialog').waitFor()
    await chat.getByRole('textbox').fill('How do I get started?')
    await page.keyboard.press('Enter')
    await chat.locator('article.assistant .actions').waitFor()
    expect((await chat.locator('article.assistant .answer').innerText()).length).toBeGreaterThan(40)
    expect((await savedConversation(page))?.threadId).toMatch(/\S/)
    expect(await page.evaluate(() => localStorage.getItem('docent:fp'))).toMatch(/^fp_[0-9a-f]{32}$/)
    await chat.getByRole('button', { name: 'Copy answer' }).click()
    await chat.locator('.note', { hasText: 'Copied' }).waitFor()
    expect(errors).toEqual([])
    await page.close()
  })
})
