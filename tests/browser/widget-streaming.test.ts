import { createServer, type Server } from 'node:http'
import { closeServer, listenLocal } from '../support/local-http.ts'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSkipReason, ensureWidgetBuilt, launchBrowser, type RunningDocent, savedConversation, startDocent } from './support.ts'

// Streaming as the reader sees it, made deterministic: an OpenAI-compatible model server that sends the first part of
// its answer and then holds the stream until the test releases it. The partial answer must be on screen while the
// rest has not been generated yet, and Stop must end the answer there.

const skip = browserSkipReason()

/** Each request streams `first`, waits for `release()`, then streams `rest` and finishes. */
async function startHeldModel(first: string, rest: string) {
  let releases: Array<() => void> = []
  const server: Server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', async () => {
      const { model } = JSON.parse(body) as { model: string }
      const base = {
        id: 'chatcmpl-held',
        object: 'chat.completion.chunk',
        created: 1,
        model,
      }
      const send = (delta: Record<string, unknown>, finish: string | null = null) =>
        res.write(
          `data: ${JSON.stringify({
            ...base,
            choices: [{ index: 0, delta, finish_reason: finish }],
          })}\n\n`,
        )
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
      })
      send({ role: 'assistant', content: '' })
      send({ content: first })
      await new Promise<void>((resolve) => releases.push(resolve))
      if (res.destroyed) return
      send({ content: rest })
      send({}, 'stop')
      res.end('data: [DONE]\n\n')
    })
  })
  const url = await listenLocal(server)
  return {
    baseURL: `${url}/v1`,
    release() {
      for (const release of releases) release()
      releases = []
    },
    close: () => {
      for (const release of releases) release()
      return closeServer(server)
    },
  }
}

describe.skipIf(skip)('<docent-chat> streaming', () => {
  let browser: Browser
  let docent: RunningDocent
  let model: Awaited<ReturnType<typeof startHeldModel>>

  beforeAll(async () => {
    await ensureWidgetBuilt()
    model = await startHeldModel('Percentage rollouts are **sticky**: ', 'a reader who got the feature keeps it as you ramp up [1].')
    ;[browser, docent] = await Promise.all([
      launchBrowser(),
      startDocent(
        {
          model: {
            provider: 'openai',
            id: 'held-model',
            baseURL: model.baseURL,
            apiKey: { env: 'HELD_KEY' },
          },
        },
        {
          HELD_KEY: 'sk-test',
        },
      ),
    ])
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([docent?.stop(), model?.close()])
  })

  it('shows the answer while it streams, and Stop ends it there', async () => {
    const page = await browser.newPage()
    await page.goto(`${docent.url}/guides/percentage-rollouts`)
    const chat = page.locator('docent-chat')
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('How do percentage rollouts work?')
    await page.keyboard.press('Enter')

    // The first part is on screen while the model has not produced the rest.
    const answer = chat.locator('article.assistant')
    await answer.locator('strong', { hasText: 'sticky' }).waitFor()
    expect(await answer.getAttribute('aria-busy')).toBe('true')
    expect(await answer.locator('nav a').count()).toBeGreaterThan(0)
    expect(await answer.locator('.actions').count()).toBe(0)

    await chat.getByRole('button', { name: 'Stop' }).click()
    await chat.getByRole('button', { name: 'Send' }).waitFor()
    expect(await answer.getAttribute('aria-busy')).toBe('false')
    expect((await answer.locator('.answer').innerText()).trim()).toBe('Percentage rollouts are sticky:')
    expect(await chat.getByRole('alert').count()).toBe(0)
    model.release()

    // The next question streams to the end once the model finishes.
    await chat.getByRole('textbox').fill('Can I ramp back down?')
    await page.keyboard.press('Enter')
    const second = chat.locator('article.assistant').nth(1)
    await second.locator('strong', { hasText: 'sticky' }).waitFor()
    model.release()
    await second.locator('.actions').waitFor()
    expect(await second.locator('.answer').innerText()).toContain('keeps it as you ramp up')
    await page.close()
  })

  it('marks a stopped answer and a cut-off one (the page left mid-answer) after a reload, and retries them', async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 800 },
    })
    const page = await context.newPage()
    await page.goto(`${docent.url}/guides/percentage-rollouts`)
    const chat = page.locator('docent-chat')
    const answer = chat.locator('article.assistant').last()

    // Stopped: kept as far as it got, marked, with Retry and no thumbs (there is nothing to rate).
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await chat.getByRole('textbox').fill('How do percentage rollouts work?')
    await page.keyboard.press('Enter')
    await answer.locator('strong', { hasText: 'sticky' }).waitFor()
    await chat.getByRole('button', { name: 'Stop' }).click()
    await chat.getByRole('button', { name: 'Send' }).waitFor()
    model.release()
    expect((await savedConversation(page))!.messages.at(-1)!.metadata).toMatchObject({ end: 'stopped' })
    await page.reload()
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    await answer.getByText('You stopped this answer.').waitFor()
    expect(await answer.getByRole('button', { name: 'Helpful' }).count()).toBe(0)
    await answer.getByRole('button', { name: 'Retry' }).click()
    await chat.locator('article.assistant strong', { hasText: 'sticky' }).waitFor()
    model.release()
    await chat.locator('article.assistant .actions').waitFor()
    expect(await chat.locator('article.assistant').count()).toBe(1)
    expect(await chat.locator('article.assistant').innerText()).toContain('keeps it as you ramp up')
    expect(await chat.getByText('You stopped this answer.').count()).toBe(0)

    // Cut off: the reader leaves while the answer streams; the next page shows what came, marked, and retries it.
    await chat.getByRole('textbox').fill('Can I ramp back down?')
    await page.keyboard.press('Enter')
    await chat
      .locator('article.assistant')
      .nth(1)
      .locator('strong', {
        hasText: 'sticky',
      })
      .waitFor()
    await page.reload()
    model.release()
    await chat.getByRole('button', { name: /Ask AI/ }).click()
    const cut = chat.locator('article.assistant').nth(1)
    await cut.getByText('This answer was cut off.').waitFor()
    expect((await cut.locator('.answer').innerText()).trim()).toBe('Percentage rollouts are sticky:')
    expect((await savedConversation(page))!.messages.at(-1)!.metadata).toMatchObject({ end: 'cut-off' })
    await cut.getByRole('button', { name: 'Retry' }).click()
    await chat
      .locator('article.assistant')
      .nth(1)
      .locator('strong', {
        hasText: 'sticky',
      })
      .waitFor()
    model.release()
    await chat.locator('article.assistant').nth(1).locator('.actions').waitFor()
    expect(await chat.getByText('This answer was cut off.').count()).toBe(0)
    expect((await savedConversation(page))!.messages.at(-1)!.metadata).toMatchObject({ end: 'complete' })
    await context.close()
  })
})
