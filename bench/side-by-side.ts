// Child process of bench/http and bench/assistant: serves Docent and a bare Hono app side by side, both over the
// same search index and the same zero-latency scripted model, and prints their URLs and an assistant key as one
// JSON line. Docent runs on the default store (PGlite, in a fresh data directory) unless BENCH_STORE names another.
//
// The bare app is the baseline the targets are judged against: the same work a minimal Hono app would do to offer the
// same endpoints (validate the body with the shared schema, search the same corpus, build the same prompt from the
// same retrieval, stream the same model through an encoder), without Docent's middleware: request ids, method checks,
// body limit, CORS, keys, rate limits, threads. Both compress the search answers (gzip; the clients ask for gzip).
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { createUIMessageStream, createUIMessageStreamResponse, streamText, toUIMessageStream } from 'ai'
import { Hono } from 'hono'
import { compress } from 'hono/compress'
import { AssistantV2Body, turnsOfV2 } from '../shared/assistant.ts'
import { SearchBody } from '../shared/search.ts'
import { retrieve } from '../server/assistant/retrieval.ts'
import { systemPrompt } from '../server/assistant/system-prompt.ts'
import { createKey } from '../server/keys/keys.ts'
import { consoleLogger } from '../server/log.ts'
import { createDocent } from '../server/mod.ts'
import { openAiCompatibleModel } from '../server/models/registry.ts'
import { searchSections } from '../server/search/hybrid.ts'
import { searchResult } from '../server/search/routes.ts'
import { scriptedModelFetch } from './assistant/scripted-model.ts'

const storeKind = (process.env.BENCH_STORE ?? 'pglite') as 'pglite' | 'memory' | 'postgres'
const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-'))
const unlimited = 1_000_000_000
const docent = await createDocent(
  {
    dataDir,
    store: { kind: storeKind, ...(process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : {}) },
    worker: false,
    model: { provider: 'openai', id: 'scripted', baseURL: 'http://scripted.invalid/v1' },
    // Counted as usual, never refused: the bench measures the cost of counting, not refusals.
    limits: Object.fromEntries(
      [
        'assistantKeyPerMonth',
        'organizationPerHour',
        'ipPerDay',
        'assistantIpPerHour',
        'docsKeyPerMonth',
        'docsIpPerHour',
        'feedbackKeyPerMonth',
        'feedbackIpPerHour',
      ].map((name) => [name, unlimited]),
    ),
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, allowedOrigins: ['*'] }],
  },
  { fetch: scriptedModelFetch, log: consoleLogger('silent') },
)
const key = (await createKey(docent.context.store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret
const ctx = docent.context
const project = ctx.projects.byId('demo')!
await ctx.search.corpus('demo')

const model = await openAiCompatibleModel(docent.config, 'scripted', { fetch: scriptedModelFetch, env: {} })
const bare = new Hono()
// Search answers are JSON of several KB, which Docent compresses: the baseline compresses them too (Hono's own).
bare.post('/search/:domain', compress(), async (c) => {
  const body = SearchBody.parse(await c.req.json())
  const corpus = await ctx.search.corpus(project.id)
  const hits = await searchSections(corpus, body.query, {
    pageSize: body.pageSize,
    filter: body.filter,
    scoreThreshold: body.scoreThreshold,
  })
  return c.json(hits.map((hit) => searchResult(hit, project)))
})
bare.post('/chat/:domain', async (c) => {
  const body = AssistantV2Body.parse(await c.req.json())
  const turns = turnsOfV2(body)
  const retrieval = await retrieve(ctx, project, {
    turns,
    pageSize: body.retrievalPageSize,
    filter: body.filter,
    currentPath: body.currentPath,
    context: body.context,
    origin: new URL(c.req.url).origin,
  })
  const result = streamText({
    model,
    instructions: systemPrompt({ docsName: project.name ?? project.domain, sources: retrieval.blocks, currentPath: body.currentPath }),
    messages: turns.flatMap((turn) => (turn.role === 'system' ? [] : [{ role: turn.role, content: turn.text }])),
  })
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: 'start', messageId: crypto.randomUUID() })
      retrieval.sources.forEach((source, index) =>
        writer.write({ type: 'source-url', sourceId: `source-${index + 1}`, url: source.url, title: source.title }),
      )
      writer.merge(toUIMessageStream({ stream: result.stream, sendStart: false }))
    },
  })
  return createUIMessageStreamResponse({ stream })
})

const listen = (app: Pick<Hono, 'fetch'>) =>
  new Promise<string>((resolve) => {
    const server = serve(
      { fetch: (request, env) => app.fetch(request, { ip: env.incoming.socket.remoteAddress }), port: 0, hostname: '127.0.0.1' },
      () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    )
  })
console.log(JSON.stringify({ docent: await listen(docent.app), bare: await listen(bare), key, store: storeKind }))

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void docent.stop().finally(() => {
      rmSync(dataDir, { recursive: true, force: true })
      process.exit(0)
    })
  })
}
