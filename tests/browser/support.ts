import { existsSync, readFileSync } from 'node:fs'
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

/** Browser tests need Debian's chromium; outside CI its absence skips them with a printed reason. */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null
  if (process.env.CI) throw new Error(`${CHROMIUM} is missing: CI must install Debian's chromium (.ci/run does)`)
  const reason = `skipping browser tests: ${CHROMIUM} is not installed (apt-get install chromium)`
  console.log(reason)
  return reason
}

export async function launchBrowser(): Promise<Browser> {
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

/** A real Docent HTTP server (createDocent + @hono/node-server) on a free port, memory store, demo docs. */
export async function startDocent(config: Partial<DocentConfigInput> = {}, env: Record<string, string> = {}): Promise<RunningDocent> {
  const docent = await createDocent(
    {
      store: { kind: 'memory' },
      worker: false,
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          name: 'Demo docs',
          // Public, as the embedded demo's: Docent serves pages only for public docs.
          docs: { directory: 'demo/docs', public: true },
          allowedOrigins: ['*'],
        },
      ],
      ...config,
    },
    { log: consoleLogger('silent'), env },
  )
  const { store } = docent.context
  const assistantKey = (await createKey(store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret
  const adminKey = (await createKey(store, { kind: 'admin', organization: 'demo' })).secret
  // Index the docs before the first page is served.
  await docent.context.search.corpus('demo')
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: (request, bindings) => docent.app.fetch(request, { ip: bindings.incoming.socket.remoteAddress }),
      },
      () => resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
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
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file))
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
