import { afterAll, beforeAll } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { serve } from '@hono/node-server'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type DocentConfigInput } from '../../server/mod.ts'
import { buildIfStale } from '../../widget/build.ts'
import { closeServer, listenLocal } from '../support/local-http.ts'

export const CHROMIUM = '/usr/bin/chromium'

/**
 * Where the screenshot tests write: the README's `docs/screenshots/` when asked (`npm run screenshots` sets
 * DOCENT_UPDATE_SCREENSHOTS=1), else a temporary folder, so that a test run leaves the working tree as it was.
 */
export function screenshotDir(): string {
  if (process.env.DOCENT_UPDATE_SCREENSHOTS === '1') {
    mkdirSync('docs/screenshots', { recursive: true })
    return 'docs/screenshots'
  }
  return mkdtempSync(join(tmpdir(), 'docent-screenshots-'))
}

/** Removes a screenshotDir() that is only a test's (a temporary folder); the README's is kept. */
export function discardScreenshots(dir: string | undefined): void {
  if (dir && dir !== 'docs/screenshots') rmSync(dir, { recursive: true, force: true })
}

/** Browser tests need Debian's chromium; outside CI its absence skips them with a printed reason. */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null
  if (process.env.CI) {
    throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does)`)
  }
  const reason = `skipping browser tests: ${CHROMIUM} is not installed (apt-get install chromium)`
  console.log(reason)
  return reason
}

/** Chromium as the tests use it; `extraArgs` adds flags (`--host-resolver-rules=…` to give a loopback server a name). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // No network here, and no sandbox inside containers.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
      ...extraArgs,
    ],
  })
}

export async function ensureWidgetBuilt() {
  await buildIfStale()
}

export interface RunningDocent {
  url: string
  assistantKey: string
  adminKey: string
  docent: Awaited<ReturnType<typeof createDocent>>
  stop(): Promise<void>
}

/** The demo project every browser test starts from; a test that needs another origin policy spreads it. */
export const DEMO_PROJECT = {
  id: 'demo',
  organization: 'demo',
  domain: 'demo',
  name: 'Demo docs',
  // Public, as the embedded demo's: Docent serves pages only for public docs.
  docs: { directory: 'demo/docs', public: true },
  allowedOrigins: ['*'],
}

/** Waits for the widget's `n`th answer to finish (its actions appear once the stream has ended). */
export const answerFinished = (page: import('playwright-core').Page, n = 1) =>
  page
    .locator('docent-chat article.assistant .actions')
    .nth(n - 1)
    .waitFor()

/** A thread of the demo project as the admin API stores it. */
export async function storedThread(server: RunningDocent, threadId: string) {
  const response = await fetch(`${server.url}/v2/assistant/demo/threads/${threadId}`, {
    headers: { authorization: `Bearer ${server.adminKey}` },
  })
  return (await response.json()) as {
    messages: Array<{ id: string; role: string; content: string; feedback?: { rating: string; comment?: string } }>
  }
}

/** A real Docent HTTP server (createDocent + @hono/node-server) on a free port, memory store, demo docs. */
export async function startDocent(
  config: Partial<DocentConfigInput> = {},
  env: Record<string, string> = {},
  { hostname = '127.0.0.1' }: { hostname?: string } = {},
): Promise<RunningDocent> {
  const docent = await createDocent(
    {
      store: { kind: 'memory' },
      worker: false,
      projects: [DEMO_PROJECT],
      ...config,
    },
    { log: consoleLogger('silent'), env },
  )
  const { store } = docent.context
  const assistantKey = (
    await createKey(store, {
      kind: 'assistant',
      organization: 'demo',
      projectId: 'demo',
    })
  ).secret
  const adminKey = (await createKey(store, { kind: 'admin', organization: 'demo' })).secret
  // Index the docs before the first page is served.
  await docent.context.search.corpus('demo')
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        port: 0,
        hostname,
        fetch: (request, bindings) =>
          docent.app.fetch(request, {
            ip: bindings.incoming.socket.remoteAddress,
          }),
      },
      () => resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://${hostname}:${port}`,
    assistantKey,
    adminKey,
    docent,
    async stop() {
      await closeServer(server as Server)
      await docent.stop()
    },
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
}

/** Serves a built static app (the React example) from its own origin. */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '')
    const file = join(dir, path.endsWith('/') ? `${path}index.html` : path)
    if (!file.startsWith(dir) || !existsSync(file)) {
      res.writeHead(404).end('not found')
      return
    }
    res
      .writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      })
      .end(readFileSync(file))
  })
  return { url: await listenLocal(server), close: () => closeServer(server) }
}

/** The widget's request bodies as the browser sent them. */
export function recordAssistantRequests(context: BrowserContext) {
  const bodies: Array<Record<string, unknown>> = []
  context.on('request', (request) => {
    if (request.method() === 'POST' && /\/discovery\/v2\/assistant\/[^/]+\/message$/.test(request.url())) {
      bodies.push(JSON.parse(request.postData() ?? '{}'))
    }
  })
  return bodies
}

/** The conversation the widget has open for a domain, as it keeps it in localStorage (null when there is none). */
export function savedConversation(page: import('playwright-core').Page, domain = 'demo') {
  return page.evaluate((domain) => {
    const id = localStorage.getItem(`docent:${domain}:current`)
    const text = id ? localStorage.getItem(`docent:${domain}:conversation:${id}`) : null
    return text
      ? (JSON.parse(text) as {
          threadId: string | null
          messages: Array<{
            id: string
            role: string
            parts: unknown[]
            metadata?: Record<string, unknown>
          }>
        })
      : null
  }, domain)
}

/** The focused element inside the widget (through the launcher's and the panel's shadow roots): `tag.first-class`. */
export function focusedInWidget(page: import('playwright-core').Page) {
  return page.evaluate(() => {
    let active: Element | null | undefined = document.querySelector('docent-chat')?.shadowRoot?.activeElement
    while (active?.shadowRoot?.activeElement) {
      active = active.shadowRoot.activeElement
    }
    return active ? `${active.tagName.toLowerCase()}${active.className ? `.${active.className.split(' ')[0]}` : ''}` : null
  })
}

/**
 * axe-core's serious and critical violations inside the widget (the host page's own are not the widget's to fix):
 * WCAG 2.1 A/AA and best practices, shadow roots included.
 */
export async function widgetViolations(page: import('playwright-core').Page) {
  const source = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
  await page.evaluate(source)
  // Colours are judged once entrance animations (the panel's fade-in) have ended; the "thinking" dots loop forever.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => null)),
    ),
  )
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{
            violations: Array<{
              id: string
              impact: string
              help: string
              nodes: Array<{ target: unknown[]; failureSummary?: string }>
            }>
          }>
        }
      }
    ).axe
    const result = await axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
      resultTypes: ['violations'],
    })
    return result.violations
  })
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      ...violation,
      nodes: violation.nodes.filter((node) => JSON.stringify(node.target).includes('docent-chat')),
    }))
    .filter((violation) => violation.nodes.length > 0)
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    )
}

/**
 * For the tests of one `describe`: the widget built, one Chromium and one Docent on the demo docs, started before them
 * and closed after. Read `browser` and `server` inside the tests (they are set when the tests run).
 */
export function widgetOnDemoSite(): { browser: Browser; server: RunningDocent } {
  const running = {} as { browser: Browser; server: RunningDocent }
  beforeAll(async () => {
    await ensureWidgetBuilt()
    ;[running.browser, running.server] = await Promise.all([launchBrowser(), startDocent()])
  })
  afterAll(async () => {
    await running.browser?.close()
    await running.server?.stop()
  })
  return running
}
