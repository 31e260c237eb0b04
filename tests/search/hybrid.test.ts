import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { MockEmbeddingModelV4 } from 'ai/test'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import type { SearchResult } from '../../shared/search.ts'
import { configFromEnv } from '../../server/config-from-env.ts'
import type { Logger } from '../../server/log.ts'
import type { DocentOverrides } from '../../server/mod.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { type ChatRequest, startScriptedOpenAI } from '../support/scripted-openai.ts'

// Hybrid search end to end: @ai-sdk/openai embeds sections and queries against the scripted server's embeddings route.
// Its vectors count words by concept, so "reverse" and "roll back" mean the same to it while BM25 sees no shared word.

const CONCEPTS: Array<RegExp> = [
  /^(reverse|revert|roll|rolling|back|restore|previous)$/,
  /^(publish|publishing|deploy|deployment|live)$/,
  /^(invoice|invoices|payment|billing|card|bill)$/,
]
let embeddingDown = false
let embeddingHangs = false
function conceptVector(text: string): number[] | Promise<number[]> {
  if (embeddingDown) throw new Error('embedding server down')
  if (embeddingHangs) return new Promise(() => {})
  const vector = [0, 0, 0, 0.2]
  for (const word of text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean)) {
    const concept = CONCEPTS.findIndex((pattern) => pattern.test(word))
    vector[concept === -1 ? 3 : concept]! += concept === -1 ? 0.05 : 1
  }
  return vector
}

const PAGES: Record<string, string> = {
  'docs.json': JSON.stringify({
    name: 'Hybrid Docs',
    navigation: {
      groups: [
        { group: 'Guides', pages: ['guides/rollback', 'guides/publishing', 'guides/targeting', 'guides/segments'] },
        { group: 'Account', pages: ['account/billing', 'account/members'] },
      ],
    },
  }),
  'guides/rollback.mdx': '---\ntitle: Rolling back\n---\n\nRoll back a deployment to restore the previous version of your flags.\n',
  'guides/publishing.mdx':
    '---\ntitle: Publishing changes\n---\n\nPublish changes to make new flag values live. Every publish creates a version.\n',
  'guides/targeting.mdx': '---\ntitle: Targeting\n---\n\nTargeting rules pick which users see which flag value.\n',
  'guides/segments.mdx': '---\ntitle: Segments\n---\n\nA segment is a named list of users that rules can reuse.\n',
  'account/billing.mdx': '---\ntitle: Billing\n---\n\nInvoices arrive monthly. Change the payment card in settings.\n',
  'account/members.mdx': '---\ntitle: Members\n---\n\nInvite teammates and give them roles.\n',
}
const QUERY = 'reverse a publish'

const model = await startScriptedOpenAI(() => ({ text: 'Roll it back [1].' }), { embed: conceptVector })
const dirs: string[] = []
const docents: Array<{ docent: { stop(): Promise<void> } }> = []
afterEach(() => {
  embeddingDown = false
  embeddingHangs = false
})
afterAll(async () => {
  for (const t of docents) await t.docent.stop()
  await model.close()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function docsDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docent-hybrid-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(PAGES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  return dir
}

/** A Docent over a fresh copy of the pages, with the scripted server as chat and embedding model; its log kept. */
async function hybridDocent(
  embeddingId: string | null = 'scripted-embedding',
  { waitForEmbedding = true, models }: { waitForEmbedding?: boolean; models?: DocentOverrides['models'] } = {},
) {
  const dir = await docsDir()
  const logged: string[] = []
  const log: Logger = { info: (m) => logged.push(m), warn: (m) => logged.push(m), error: (m) => logged.push(m) }
  const t = await testDocent(
    {
      model: { provider: 'openai', id: 'scripted-chat', baseURL: model.baseURL, ...(embeddingId ? { embeddingId } : {}) },
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: dir }, allowedOrigins: ['*'] }],
    },
    { log, models },
  )
  docents.push(t)
  if (waitForEmbedding) await t.docent.context.search.embedded!('demo')
  const search = async (body: Record<string, unknown>) => {
    const response = await t.app.request('/discovery/v1/search/demo', json(body, bearer(t.keys.assistant)))
    expect(response.status).toBe(200)
    return (await response.json()) as SearchResult[]
  }
  return { ...t, dir, logged, search }
}
const pathsOf = (results: SearchResult[]) => results.map((result) => result.path)
const inputsSince = (from: number) => model.embeddingRequests.slice(from).flatMap((request) => request.input)

describe('hybrid search (BM25 + embeddings)', () => {
  let t: Awaited<ReturnType<typeof hybridDocent>>
  beforeAll(async () => {
    t = await hybridDocent()
  })

  test('a query sharing no word with the right section finds it; BM25 alone does not', async () => {
    const corpus = await t.docent.context.search.corpus('demo')
    expect(corpus.search(QUERY, { pageSize: 5 }).map((hit) => hit.section.path)).not.toContain('guides/rollback')
    const results = await t.search({ query: QUERY, pageSize: 3 })
    expect(pathsOf(results)).toContain('guides/rollback')
    expect(results[0]!.metadata.score).toBe(1)
    expect(results.every((result) => result.metadata.score > 0 && result.metadata.score <= 1)).toBe(true)
    expect(model.embeddingRequests.at(-1)).toMatchObject({ model: 'scripted-embedding', input: [QUERY] })
    // A query asked again reuses its vector.
    const requests = model.embeddingRequests.length
    expect(await t.search({ query: QUERY, pageSize: 3 })).toEqual(results)
    expect(model.embeddingRequests.length).toBe(requests)
  })

  test('filters, scoreThreshold and the current page still apply', async () => {
    const billing = await t.search({ query: QUERY, pageSize: 10, filter: { groups: ['Account'] } })
    expect(billing.length).toBeGreaterThan(0)
    expect(pathsOf(billing).every((path) => path.startsWith('account/'))).toBe(true)
    const strict = await t.search({ query: QUERY, pageSize: 10, scoreThreshold: 0.99 })
    expect(strict.every((result) => result.metadata.score >= 0.99)).toBe(true)
    expect(strict.length).toBeLessThan((await t.search({ query: QUERY, pageSize: 10 })).length)
    const corpus = await t.docent.context.search.corpus('demo')
    const onMembers = await corpus.searchHybrid!('teammates roles segment', { pageSize: 3, currentPath: '/account/members' })
    expect(onMembers[0]!.section.path).toBe('account/members')
  })

  test('the assistant and the MCP search_docs tool search hybrid too', async () => {
    const response = await t.app.request(
      '/discovery/v2/assistant/demo/message',
      json({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: QUERY }] }] }, bearer(t.keys.assistant)),
    )
    await response.text()
    const system = String((model.requests.at(-1) as ChatRequest).messages.find((m) => m.role === 'system')?.content)
    expect(system).toContain('restore the previous version')

    const transport = new StreamableHTTPClientTransport(new URL('http://docs.test/mcp/demo'), {
      fetch: (url, init) => Promise.resolve(t.app.request(String(url), init, { ip: '10.0.0.1' })),
      requestInit: { headers: { authorization: `Bearer ${t.keys.assistant}` } },
    })
    const client = new Client({ name: 'hybrid-test', version: '1.0.0' })
    await client.connect(transport)
    const result = (await client.callTool({ name: 'search_docs', arguments: { query: QUERY, pageSize: 3 } })) as CallToolResult
    expect(JSON.stringify(result.structuredContent)).toContain('guides/rollback')
    await client.close()
  })

  test('the embedding server down at query time: BM25 answers, and the failure is logged', async () => {
    embeddingDown = true
    const results = await t.search({ query: 'reverse publishing', pageSize: 5 })
    expect(pathsOf(results)[0]).toBe('guides/publishing')
    expect(pathsOf(results)).not.toContain('guides/rollback')
    expect(t.logged).toContain('query embedding failed; BM25 alone answers')
  })

  test('the embedding server hanging at query time: BM25 answers after the query timeout', async () => {
    embeddingHangs = true
    const failures = t.logged.length
    const results = await t.search({ query: 'reverse any publish', pageSize: 5 })
    expect(pathsOf(results)).toEqual(['guides/publishing'])
    expect(t.logged.slice(failures)).toContain('query embedding failed; BM25 alone answers')
  })

  test('a reload embeds only the sections whose text changed', async () => {
    const from = model.embeddingRequests.length
    await writeFile(
      join(t.dir, 'guides/segments.mdx'),
      '---\ntitle: Segments\n---\n\nA segment is a saved list of users; revert a segment from its history.\n',
    )
    expect((await t.docent.context.search.refresh('demo')).changed).toBe(true)
    const inputs = inputsSince(from)
    expect(inputs).toHaveLength(1)
    expect(inputs[0]).toContain('revert a segment')
    const results = await t.search({ query: 'reverse', pageSize: 10 })
    expect(pathsOf(results)).toEqual(expect.arrayContaining(['guides/rollback', 'guides/segments']))
  })
})

describe('hybrid search when embeddings are unavailable', () => {
  test('the embedding server down at index time: the docs load, BM25 answers, and the next refresh embeds', async () => {
    embeddingDown = true
    const t = await hybridDocent()
    const results = await t.search({ query: QUERY, pageSize: 5 })
    expect(pathsOf(results)).toEqual(['guides/publishing'])
    expect(t.logged).toContain('docs embedding failed; search uses BM25 alone until the next refresh')

    embeddingDown = false
    await t.docent.context.search.refresh('demo')
    expect(pathsOf(await t.search({ query: QUERY, pageSize: 3 }))).toContain('guides/rollback')
  })

  test('while the first embedding runs, BM25 answers: a slow embedding server does not hold up the docs', async () => {
    embeddingHangs = true
    const requests = model.embeddingRequests.length
    const t = await hybridDocent('scripted-embedding', { waitForEmbedding: false })
    const corpus = await t.docent.context.search.corpus('demo')
    // The sections are on their way to the model (which never answers).
    await vi.waitFor(() => expect(model.embeddingRequests.length).toBeGreaterThan(requests))
    expect(corpus.searchHybrid).toBeUndefined()
    expect(pathsOf(await t.search({ query: QUERY, pageSize: 5 }))).toEqual(['guides/publishing'])
  })

  test('DOCENT_EMBEDDING_MODEL sets the embedding model', () => {
    const env = { DOCENT_STORE: 'memory', OPENAI_BASE_URL: model.baseURL, DOCENT_EMBEDDING_MODEL: 'text-embedding-3-small' }
    expect(configFromEnv(env).model).toMatchObject({ provider: 'openai', baseURL: model.baseURL, embeddingId: 'text-embedding-3-small' })
    expect(configFromEnv({ DOCENT_STORE: 'memory' }).model.embeddingId).toBeUndefined()
  })

  test('without an embedding model nothing is embedded and search is BM25 as before', async () => {
    const from = model.embeddingRequests.length
    const t = await hybridDocent(null)
    const corpus = await t.docent.context.search.corpus('demo')
    expect(corpus.searchHybrid).toBeUndefined()
    expect(pathsOf(await t.search({ query: QUERY, pageSize: 5 }))).toEqual(['guides/publishing'])
    expect(model.embeddingRequests.length).toBe(from)
  })

  test('an embedding model passed to createDocent is the search embedder: no embedding server is asked', async () => {
    const from = model.embeddingRequests.length
    const embedding = new MockEmbeddingModelV4({
      modelId: 'mock-embedding',
      doEmbed: async ({ values }) => ({ embeddings: await Promise.all(values.map(conceptVector)), warnings: [] }),
    })
    const t = await hybridDocent(null, { models: { embedding } })
    expect(t.docent.context.models.embedder).toBeDefined()
    expect(pathsOf(await t.search({ query: QUERY, pageSize: 3 }))).toContain('guides/rollback')
    expect(embedding.doEmbedCalls.at(-1)?.values).toEqual([QUERY])
    expect(embedding.doEmbedCalls.slice(0, -1).flatMap((call) => call.values)).toHaveLength(Object.keys(PAGES).length - 1)
    expect(model.embeddingRequests.length).toBe(from)
  })
})
