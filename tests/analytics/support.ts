import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AbstractChat, DefaultChatTransport, type UIMessage } from 'ai'
import type { Env } from '../../server/config.ts'
import { configFromEnv } from '../../server/config-from-env.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { serveApp } from '../assistant/support.ts'
import { pgliteDataDir } from '../support/pglite.ts'

export interface Embedded {
  docent: Docent
  url: string
  dataDir: string
  admin: string
  assistant: string
  /** An admin-key request to the served app; the JSON body when `json` is set. */
  get<T = unknown>(path: string): Promise<T>
  post(path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>
  stop(): Promise<void>
}

/**
 * The embedded default as `npm start` makes it, with no API key: the demo config from the environment (PGlite in a
 * data directory, the demo docs in the local repository the agent pushes to, the offline models, seeded keys),
 * served over HTTP on a free port. `env` adds variables (webhook secrets, poll intervals).
 */
export async function embeddedDocent(env: Env = {}, file: Record<string, unknown> = {}): Promise<Embedded> {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-analytics-'))
  await pgliteDataDir(join(dataDir, 'pglite'))
  const environment = { DOCENT_DATA_DIR: dataDir, DOCENT_GAP_POLL_MS: '100', DOCENT_AGENT_POLL_MS: '100', ...env }
  const config = configFromEnv(environment, { publicUrl: 'http://docs.test', ...file })
  const docent = await createDocent(config, { env: environment, log: consoleLogger('silent') })
  const keys = await docent.start()
  const server = await serveApp(docent.app)
  const auth = { authorization: `Bearer ${keys.admin}` }
  return {
    docent,
    url: server.url,
    dataDir,
    admin: keys.admin!,
    assistant: keys.assistant!,
    async get<T>(path: string) {
      const response = await fetch(server.url + path, { headers: auth })
      if (!response.ok) throw new Error(`GET ${path} → ${response.status}: ${await response.text()}`)
      return (await response.json()) as T
    },
    post: (path, body, headers = {}) =>
      fetch(server.url + path, {
        method: 'POST',
        headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async stop() {
      await server.close()
      await docent.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

export interface Asked {
  message: UIMessage
  text: string
  threadId: string
  resolution: string | undefined
  sources: string[]
}

/**
 * Asks through the AI SDK's own chat client (ai@7 `AbstractChat` + `DefaultChatTransport`), as a docs site or an
 * app does; `origin` set makes it a browser on a docs site, unset an API caller.
 */
export async function ask(
  url: string,
  key: string,
  question: string,
  options: { origin?: string; currentPath?: string; domain?: string } = {},
): Promise<Asked> {
  const state = {
    status: 'ready',
    error: undefined as Error | undefined,
    messages: [] as UIMessage[],
    pushMessage: (message: UIMessage) => void (state.messages = [...state.messages, message]),
    popMessage: () => void (state.messages = state.messages.slice(0, -1)),
    replaceMessage: (index: number, message: UIMessage) =>
      void (state.messages = state.messages.map((m, i) => (i === index ? message : m))),
    snapshot: <T>(thing: T): T => structuredClone(thing),
  }
  class Chat extends AbstractChat<UIMessage> {}
  const transport = new DefaultChatTransport({
    api: `${url}/discovery/v2/assistant/${options.domain ?? 'demo'}/message`,
    headers: { authorization: `Bearer ${key}`, ...(options.origin ? { origin: options.origin } : {}) },
    body: () => ({ fp: 'reader-1', ...(options.currentPath ? { currentPath: options.currentPath } : {}) }),
  })
  const chat = new Chat({ transport, state: state as never, onError: () => {} })
  await chat.sendMessage({ text: question })
  if (chat.error) throw chat.error
  const message = state.messages.at(-1)!
  const metadata = (message.metadata ?? {}) as { threadId?: string; resolution?: string }
  return {
    message,
    text: message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    threadId: metadata.threadId!,
    resolution: metadata.resolution,
    sources: message.parts.flatMap((part) => (part.type === 'source-url' ? [part.url] : [])),
  }
}

/** Polls `read` until `done` holds (the gap loop runs in the background), failing with the last value after a while. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 300): Promise<T> {
  let last: T | undefined
  for (let i = 0; i < tries; i++) {
    last = await read()
    if (done(last)) return last
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what}: still ${JSON.stringify(last)}`)
}

/** Every list paged by a date cursor, and every one paged by a rank (count) cursor: each refuses a cursor it never gave. */
export const DATE_PAGED_LISTS = [
  '/v2/agent/demo/jobs',
  '/v2/assistant/demo/threads',
  '/v2/agent/demo/automations/fix-broken-links/runs',
  '/v1/analytics/demo/assistant',
  '/v1/analytics/demo/feedback',
  '/console/api/demo/jobs',
]
export const RANK_PAGED_LISTS = ['/v1/analytics/demo/searches', '/v1/analytics/demo/gaps']

/** A cursor as the server writes them (base64url, no padding) around any text: a forged one. */
export const forgeCursor = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
