import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { browserSkipReason, launchBrowser, type RunningDocent, serveStatic, startDocent } from './support.ts'

// demo/react (Vite + @ai-sdk/react useChat + DefaultChatTransport), built here, served from its own origin, talking
// to a real Docent server across origins: a question, the streamed answer with sources, the thread id from finish.

const skip = browserSkipReason()

describe.skipIf(skip)('React example (useChat against v2)', () => {
  let browser: Browser
  let server: RunningDocent
  let site: Awaited<ReturnType<typeof serveStatic>>
  const outDir = mkdtempSync(join(tmpdir(), 'docent-react-'))

  beforeAll(async () => {
    // The Vite CLI, as a developer builds it (in its own process: vitest's NODE_ENV=test would select React's dev JSX).
    const result = spawnSync(
      'node_modules/.bin/vite',
      ['build', '--config', 'demo/react/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
      {
        env: { ...process.env, NODE_ENV: 'production' },
        encoding: 'utf8',
      },
    )
    if (result.status !== 0) {
      throw new Error(`vite build of demo/react failed:\n${result.stdout}${result.stderr}`)
    }
    ;[browser, server, site] = await Promise.all([launchBrowser(), startDocent(), serveStatic(outDir)])
  })
  afterAll(async () => {
    await browser?.close()
    await Promise.all([server?.stop(), site?.close()])
    rmSync(outDir, { recursive: true, force: true })
  })

  it('completes a round trip and continues the thread it got from the finish event', async () => {
    const page = await browser.newPage()
    const params = new URLSearchParams({
      api: server.url,
      key: server.assistantKey,
      domain: 'demo',
    })
    await page.goto(`${site.url}/?${params}`)
    await page.getByRole('textbox', { name: 'Question' }).fill('How do percentage rollouts work?')
    await page.getByRole('button', { name: 'Send' }).click()
    await page
      .getByTestId('thread')
      .filter({ hasText: /^Thread: \S+/ })
      .waitFor()
    const threadId = (await page.getByTestId('thread').innerText()).replace('Thread: ', '')
    const answer = page.locator('li[data-role="assistant"]').first()
    expect((await answer.innerText()).length).toBeGreaterThan(40)
    // Markdown rendered, not shown: no asterisks or bare [n]; citations link to their sources.
    expect(await answer.innerText()).not.toMatch(/\*\*|__/)
    const citations = answer.getByRole('link', { name: /^\[\d+\]$/ })
    expect(await citations.count()).toBeGreaterThan(0)
    expect(await citations.first().getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
    const sources = answer.getByRole('list', { name: 'Sources' }).getByRole('link')
    expect(await sources.count()).toBeGreaterThan(0)
    expect(await sources.first().getAttribute('href')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*/)

    await page.getByRole('textbox', { name: 'Question' }).fill('Can I ramp back down?')
    await page.getByRole('button', { name: 'Send' }).click()
    await page.locator('li[data-role="assistant"]').nth(1).waitFor()
    await page.getByTestId('status').filter({ hasText: 'ready' }).waitFor()
    expect(await page.getByTestId('thread').innerText()).toBe(`Thread: ${threadId}`)
    const response = await fetch(`${server.url}/v2/assistant/demo/threads/${threadId}`, {
      headers: { authorization: `Bearer ${server.adminKey}` },
    })
    const thread = (await response.json()) as {
      messages: Array<{ role: string; content: string }>
    }
    expect(thread.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(thread.messages[2]!.content).toBe('Can I ramp back down?')
    await page.close()
  })

  it('runs with one command (`npm run dev`): prints its address and answers through its forwarding, key from .env', async () => {
    const dev = spawn('npm', ['run', 'dev', '--', '--host', '127.0.0.1', '--port', '0'], {
      cwd: 'demo/react',
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DOCENT_URL: server.url,
        VITE_DOCENT_ASSISTANT_KEY: server.assistantKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so npm and the Vite it starts stop together.
      detached: true,
    })
    try {
      let output = ''
      const url = await new Promise<string>((resolve, reject) => {
        dev.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString()
          const found = /Local:\s+(http:\/\/127\.0\.0\.1:\d+\/)/.exec(
            output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), ''),
          )
          if (found) resolve(found[1]!)
        })
        dev.on('exit', (code) => reject(new Error(`npm run dev exited ${code}: ${output}`)))
      })
      const page = await browser.newPage()
      await page.goto(url)
      await page.getByRole('textbox', { name: 'Question' }).fill('What is a flag?')
      await page.getByRole('button', { name: 'Send' }).click()
      await page
        .getByTestId('thread')
        .filter({ hasText: /^Thread: \S+/ })
        .waitFor()
      expect((await page.locator('li[data-role="assistant"]').innerText()).length).toBeGreaterThan(40)
      await page.close()
    } finally {
      process.kill(-dev.pid!, 'SIGTERM')
    }
  })
})
