import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import type { Store } from '../../server/store/types.ts'
import { testDocent } from '../support/app.ts'

// Property: whatever arrives (method, path, headers, body, encoding), the server answers 2xx or 4xx, every 4xx is
// a JSON {"error"}, nothing hangs, and a rejected request leaves the store as it was.

type TestDocent = Awaited<ReturnType<typeof testDocent>>
let t: TestDocent

beforeAll(async () => {
  // Limits high enough that the fuzzer exercises the handlers rather than the limiter alone.
  t = await testDocent({
    limits: { organizationPerHour: 1_000_000, ipPerDay: 1_000_000, assistantKeyPerMonth: 1_000_000, agentPerProjectPerHour: 1_000_000 },
  })
})

const weird = fc.constantFrom(
  '',
  '..',
  '%2e%2e',
  '%00',
  '%ZZ',
  'x'.repeat(300),
  '😀',
  'a/b',
  ' ',
  '%2F',
  '<script>',
  "'",
  'null',
  '-1',
  '1e309',
)
const segment = fc.oneof(fc.constantFrom('demo', 'other', 'acme.example', 'nope'), weird, fc.string({ maxLength: 12 }))
type Auth = 'none' | 'admin' | 'assistant' | 'otherAdmin' | 'otherAssistant' | 'garbage' | 'basic'
/** Every route with the method and key it expects: the well-formed half of the generator gets past the front door. */
const endpoints: Array<{ method: string; template: string; auth: Auth }> = [
  { method: 'GET', template: '/healthz', auth: 'none' },
  { method: 'GET', template: '/openapi.json', auth: 'none' },
  { method: 'POST', template: '/v2/agent/{p}/job', auth: 'admin' },
  { method: 'GET', template: '/v2/agent/{p}/job/{s}', auth: 'admin' },
  { method: 'POST', template: '/v2/agent/{p}/job/{s}/message', auth: 'admin' },
  { method: 'POST', template: '/v2/agent/{p}/job/{s}/archive', auth: 'admin' },
  { method: 'GET', template: '/v2/agent/{p}/job/{s}/events', auth: 'admin' },
  { method: 'GET', template: '/v2/agent/{p}/jobs', auth: 'admin' },
  { method: 'GET', template: '/v2/assistant/{p}/threads', auth: 'admin' },
  { method: 'GET', template: '/v2/assistant/{p}/threads/{s}', auth: 'admin' },
  { method: 'POST', template: '/discovery/v1/assistant/{p}/message', auth: 'assistant' },
  { method: 'POST', template: '/discovery/v2/assistant/{p}/message', auth: 'assistant' },
  { method: 'POST', template: '/discovery/v1/assistant/{p}/feedback', auth: 'assistant' },
  { method: 'POST', template: '/discovery/v1/search/{p}', auth: 'assistant' },
  { method: 'POST', template: '/discovery/v1/page/{p}', auth: 'assistant' },
  { method: 'GET', template: '/review/{s}', auth: 'none' },
  { method: 'GET', template: '/widget/docent.js', auth: 'none' },
  { method: 'POST', template: '/mcp/{p}', auth: 'assistant' },
  { method: 'GET', template: '/llms.txt', auth: 'none' },
  { method: 'GET', template: '/docs/{p}/llms-full.txt', auth: 'none' },
  { method: 'GET', template: '/{s}', auth: 'none' },
  { method: 'GET', template: '/{s}.md', auth: 'none' },
]
const query = fc.option(
  fc.constantFrom('?limit=0', '?limit=abc', '?limit=101', '?cursor=%%%', '?limit=5&cursor=bm9wZQ', '?x=' + 'y'.repeat(100)),
  { nil: '' },
)
const fill = (template: string, p: string, s: string, q: string) =>
  template.replace('{p}', encodeURIComponent(p) || 'demo').replace('{s}', encodeURIComponent(s) || 'x') + q
const projectSegment = fc.oneof({ arbitrary: fc.constant('demo'), weight: 4 }, { arbitrary: segment, weight: 1 })
const validBodies = fc.constantFrom<Record<string, unknown>>(
  { prompt: 'Replace "Lumen Flags" with "Lumen Platform" everywhere' },
  { fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: 'how do I install the SDK?' }] },
  {
    fp: 'anonymous',
    messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'how do I install the SDK?' }] }],
    currentPath: '/quickstart',
  },
  { query: 'rollout', pageSize: 3 },
  { path: 'quickstart' },
  { threadId: 'x', messageId: 'y', rating: 'up' },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query: 'rollout' } } },
)
const mutated = fc
  .tuple(
    validBodies,
    fc.dictionary(
      fc.constantFrom(
        'prompt',
        'fp',
        'messages',
        'query',
        'pageSize',
        'path',
        'rating',
        'threadId',
        'currentPath',
        'filter',
        'context',
        'retrievalPageSize',
        'scoreThreshold',
      ),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 3 },
    ),
  )
  .map(([body, changes]) => JSON.stringify({ ...body, ...changes }))
const body = fc.oneof(
  fc.constant(undefined),
  validBodies.map((b) => JSON.stringify(b)),
  mutated,
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
)
const headerNoise = {
  contentEncoding: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'br', 'identity'),
  origin: fc.constantFrom(undefined, undefined, 'https://docs.example.com', 'https://evil.example', 'null'),
  forwardedFor: fc.constantFrom(undefined, '1.2.3.4', 'garbage, 5.6.7.8'),
}
/** The right method, key and content type for a route, with generated ids, queries and bodies. */
const wellFormed = fc
  .record({
    endpoint: fc.constantFrom(...endpoints),
    p: projectSegment,
    s: segment,
    q: query,
    body: fc.oneof(
      { arbitrary: body, weight: 1 },
      { arbitrary: validBodies.map((b) => JSON.stringify(b)), weight: 1 },
      {
        arbitrary: mutated,
        weight: 3,
      },
    ),
    ...headerNoise,
  })
  .map(({ endpoint, p, s, q, ...rest }) => ({
    ...rest,
    method: endpoint.method,
    path: fill(endpoint.template, p, s, q),
    auth: endpoint.auth,
    contentType: 'application/json' as string | undefined,
  }))
/** Anything at all: any method, key and content type on any route. */
const anything = fc.record({
  method: fc.constantFrom('GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
  path: fc
    .tuple(fc.constantFrom(...endpoints.map((e) => e.template)), segment, segment, query)
    .map(([template, p, s, q]) => fill(template, p, s, q)),
  auth: fc.constantFrom<Auth>('none', 'admin', 'assistant', 'otherAdmin', 'otherAssistant', 'garbage', 'basic'),
  contentType: fc.constantFrom(
    undefined,
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    '\u00ff',
  ),
  body,
  ...headerNoise,
})
const request = fc.oneof({ arbitrary: wellFormed, weight: 3 }, { arbitrary: anything, weight: 2 })

async function snapshot(store: Store) {
  const projects = ['demo', 'other']
  return JSON.stringify({
    keys: (await store.listKeys()).map((k) => [k.id, k.revokedAt]),
    jobs: await Promise.all(projects.map(async (p) => (await store.listJobs(p, { limit: 100 })).items.map((j) => [j.id, j.status]))),
    threads: await Promise.all(
      projects.map(async (p) => (await store.listThreads(p, { limit: 100 })).items.map((th) => [th.id, th.messageCount])),
    ),
  })
}

async function readWithin(response: Response, ms: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`response body not finished within ${ms} ms`)), ms)),
  )
  try {
    return await Promise.race([response.text(), timeout])
  } finally {
    clearTimeout(timer)
  }
}

describe('fuzz: every endpoint, generated input', () => {
  test('only 2xx/3xx/4xx, every 4xx a JSON error, rejected requests change nothing', async () => {
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = new Headers()
        const secrets: Record<string, string | undefined> = {
          none: undefined,
          garbage: 'Bearer svc_garbagegarbagegarbage',
          basic: 'Basic dXNlcjpwYXNz',
          ...t.keys,
        }
        const secret = secrets[r.auth]
        if (secret) headers.set('authorization', secret.startsWith('Bearer') || secret.startsWith('Basic') ? secret : `Bearer ${secret}`)
        if (r.contentType) headers.set('content-type', r.contentType)
        if (r.contentEncoding) headers.set('content-encoding', r.contentEncoding)
        if (r.origin) headers.set('origin', r.origin)
        if (r.forwardedFor) headers.set('x-forwarded-for', r.forwardedFor)
        const hasBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD'
        const before = await snapshot(t.store)
        const response = await t.app.request(
          r.path,
          { method: r.method, headers, body: hasBody ? (r.body as BodyInit) : undefined },
          {
            ip: '127.0.0.1',
          },
        )
        const text = await readWithin(response, 30_000)
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
        expect(response.status, `${r.method} ${r.path} → ${response.status}: ${text.slice(0, 300)}`).toBeLessThan(500)
        if (response.status >= 400 && r.method !== 'HEAD') {
          expect(response.headers.get('content-type'), `${r.method} ${r.path}`).toMatch(/^application\/json/)
          const parsed = JSON.parse(text) as { error?: unknown }
          expect(typeof parsed.error, `${r.method} ${r.path}: ${text}`).toBe('string')
          expect(await snapshot(t.store), `${r.method} ${r.path} was rejected but changed the store`).toBe(before)
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 5000), seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined },
    )
    console.log('fuzz: statuses seen', Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))
    // The generator must reach past the front door: successful and refused requests both occur.
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true)
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(4)
  }, 600_000)
})
