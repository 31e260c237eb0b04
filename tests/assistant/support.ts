import { serve } from '@hono/node-server'
import type { Hono } from 'hono'
import type { AddressInfo } from 'node:net'
import type { UIMessage } from 'ai'
import { afterAll, beforeAll } from 'vitest'
import { testDocent } from '../support/app.ts'

/** Serves a Docent app over real HTTP on a free loopback port, as the runtime entrypoint does. */
export async function serveApp(app: Pick<Hono, 'fetch'>): Promise<{ url: string; close(): Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: (request, env) => app.fetch(request, { ip: env.incoming.socket.remoteAddress }),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    )
  })
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A test Docent (with `config` over the test defaults) served over HTTP for the tests of one file: started before them, stopped after them. */
export function serveTestDocent(config: Parameters<typeof testDocent>[0] = {}): Awaited<ReturnType<typeof testDocent>> & { url: string } {
  const served = {} as Awaited<ReturnType<typeof testDocent>> & { url: string }
  let stop = async () => {}
  beforeAll(async () => {
    const t = await testDocent(config)
    const server = await serveApp(t.app)
    Object.assign(served, t, { url: server.url })
    stop = async () => {
      await server.close()
      await t.docent.stop()
    }
  })
  afterAll(() => stop())
  return served
}

/** The slice of `ai`'s exports a v5+ chat needs; ai@5, ai@6 and ai@7 all have it. */
// biome-ignore lint/suspicious/noExplicitAny: the three `ai` majors type these differently; the tests call them alike
type AnyClass<Abstract extends boolean> = Abstract extends true ? abstract new (options: any) => any : new (options: any) => any

export interface ChatModule {
  AbstractChat: AnyClass<true>
  DefaultChatTransport: AnyClass<false>
}

export interface TestChat {
  messages: UIMessage[]
  status: string
  error: Error | undefined
  sendMessage(message: { text: string }): Promise<void>
}

/**
 * A chat of the given `ai` version the way an app uses it: `AbstractChat` with plain array state (as `@ai-sdk/react`
 * does with React state) and `DefaultChatTransport` posting to our v2 endpoint with extra body fields.
 */
export function chatOf(ai: ChatModule, options: { api: string; key: string; body: () => Record<string, unknown> }): TestChat {
  const state = {
    status: 'ready',
    error: undefined as Error | undefined,
    messages: [] as UIMessage[],
    pushMessage(message: UIMessage) {
      state.messages = [...state.messages, message]
    },
    popMessage() {
      state.messages = state.messages.slice(0, -1)
    },
    replaceMessage(index: number, message: UIMessage) {
      state.messages = state.messages.map((m, i) => (i === index ? message : m))
    },
    snapshot: <T>(thing: T): T => structuredClone(thing),
  }
  class Chat extends ai.AbstractChat {}
  const transport = new ai.DefaultChatTransport({
    api: options.api,
    headers: { authorization: `Bearer ${options.key}` },
    body: options.body,
  })
  return new Chat({ transport, state, onError: () => {} }) as TestChat
}

export const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('')

export const sourcesOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => (part.type === 'source-url' ? [{ url: part.url, title: part.title }] : []))
