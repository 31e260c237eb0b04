// Child process of bench/assistant/run.ts: serves Docent's v2 endpoint and a bare Hono route side by side, both
// streaming the same zero-latency scripted model, and prints their URLs and the assistant key as one JSON line.
import { serve } from '@hono/node-server'
import { createUIMessageStreamResponse, streamText, toUIMessageStream } from 'ai'
import { Hono } from 'hono'
import type { AddressInfo } from 'node:net'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { openAiCompatibleModel } from '../../server/models/registry.ts'
import { scriptedModelFetch } from './scripted-model.ts'

const unlimited = 1_000_000_000
const docent = await createDocent(
  {
    store: { kind: 'memory' },
    worker: false,
    model: { provider: 'openai', id: 'scripted', baseURL: 'http://scripted.invalid/v1' },
    limits: { assistantKeyPerMonth: unlimited, organizationPerHour: unlimited, ipPerDay: unlimited },
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, allowedOrigins: ['*'] }],
  },
  { fetch: scriptedModelFetch, log: consoleLogger('silent') },
)
const key = (await createKey(docent.context.store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret

// The baseline: the same model through streamText and the SDK's own UI message stream response, nothing else.
const model = openAiCompatibleModel(docent.config, 'scripted', { fetch: scriptedModelFetch, env: {} })
const bare = new Hono()
bare.post('/chat', async (c) => {
  const body = (await c.req.json()) as { messages: Array<{ parts: Array<{ text?: string }> }> }
  const question =
    body.messages
      .at(-1)
      ?.parts.map((part) => part.text ?? '')
      .join('') ?? ''
  const result = streamText({ model, messages: [{ role: 'user', content: question }] })
  return createUIMessageStreamResponse({ stream: toUIMessageStream({ stream: result.stream }) })
})

const listen = (app: Pick<Hono, 'fetch'>) =>
  new Promise<string>((resolve) => {
    const server = serve(
      {
        fetch: (request, env) => app.fetch(request, { ip: env.incoming.socket.remoteAddress }),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    )
  })
console.log(JSON.stringify({ docent: await listen(docent.app), bare: await listen(bare), key }))
