import { createServer, type ServerResponse } from 'node:http'
import { generateText, streamText } from 'ai'
import { afterEach, describe, expect, test } from 'vitest'
import { closeServer, listenLocal } from '../../tests/support/local-http.ts'
import { parseConfig } from '../config.ts'
import { MIN_CHAT_RESPONSE_BYTES } from './model-fetch.ts'
import { configuredModels } from './registry.ts'

const KEY = 'sk-modelFetchSecret123'

describe('the model client against a hostile model server', () => {
  const servers: Array<() => Promise<void>> = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((close) => close()))
  })
  const serve = async (answer: (res: ServerResponse) => void) => {
    const seen: string[] = []
    const server = createServer((req, res) => {
      seen.push(req.url ?? '')
      answer(res)
    })
    const url = await listenLocal(server)
    servers.push(() => closeServer(server))
    return { url, seen }
  }
  const modelAt = async (baseURL: string) =>
    (
      await configuredModels(
        parseConfig({
          model: { provider: 'openai', id: 'm', baseURL, apiKey: { env: 'KEY' } },
          projects: [{ id: 'p', organization: 'o', domain: 'd', docs: { directory: 'x' } }],
        }),
        {
          fetch,
          env: { KEY },
        },
      )
    ).answer

  test('a redirect is not followed: the prompt never reaches the address it names', async () => {
    const elsewhere = await serve((res) => res.end('{}'))
    const front = await serve((res) => res.writeHead(307, { location: `${elsewhere.url}/v1/chat/completions` }).end())
    const error = await generateText({ model: await modelAt(`${front.url}/v1`), prompt: 'the docs say: secret', maxRetries: 0 }).catch(
      (e: unknown) => e as Error,
    )
    expect(error).toBeInstanceOf(Error)
    expect((error as Error).message).toContain('the model server answered with a redirect (307); Docent does not follow it')
    expect(elsewhere.seen).toEqual([])
  })

  test('a chat answer past the size limit stops the call, not the server (the default agent limits allow 8 MiB)', async () => {
    const chunk = Buffer.from(`data: {"choices":[{"index":0,"delta":{"content":"${'x'.repeat(64 * 1024)}"}}]}\n\n`)
    let sent = 0
    const endless = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const more = () => {
        while (!res.destroyed && res.write(chunk)) sent += chunk.byteLength
        if (!res.destroyed) res.once('drain', more)
      }
      more()
    })
    const result = streamText({ model: await modelAt(`${endless.url}/v1`), prompt: 'hi', maxRetries: 0, onError: () => {} })
    let received = 0
    const error = await (async () => {
      for await (const part of result.fullStream) if (part.type === 'text-delta') received += part.text.length
    })().then(
      () => null,
      (e: unknown) => e as Error & { cause?: unknown },
    )
    expect(String(error?.cause)).toContain("the model server's answer is over 8 MiB")
    expect(received).toBeLessThanOrEqual(MIN_CHAT_RESPONSE_BYTES)
    expect(sent).toBeLessThan(MIN_CHAT_RESPONSE_BYTES * 2)
  })
})
