import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult, TextContent } from '@modelcontextprotocol/sdk/types.js'
import type { Hono } from 'hono'
import { afterAll, describe, expect, test } from 'vitest'
import { stoppedClock, testDocent } from '../support/app.ts'

// The SDK's own client over Streamable HTTP, with a fetch that hands each request to the app (no socket needed).
const BASE = 'http://docs.test'

const projects = [
  { id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs' }, allowedOrigins: ['https://docs.example.com'] },
  { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' }, mcp: { public: true } },
]

async function connect(app: Pick<Hono, 'request'>, domain: string, key?: string, ip = '10.0.0.1'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp/${domain}`), {
    fetch: (url, init) => Promise.resolve(app.request(String(url), init, { ip })),
    requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : undefined,
  })
  const client = new Client({ name: 'docent-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

const text = (result: unknown) => ((result as CallToolResult).content[0] as TextContent).text

const t = await testDocent({ projects, trustedHosts: ['docs.test'] })
afterAll(async () => {
  await t.docent.stop()
})

describe('MCP server over Streamable HTTP (SDK client, demo docs)', () => {
  test('describes itself from docs.json and lists the two tools', async () => {
    const client = await connect(t.app, 'demo', t.keys.assistant)
    const info = client.getServerVersion()
    expect(info?.name).toBe('Lumen Flags')
    expect(info?.description).toMatch(/feature-flag/)
    expect(client.getInstructions()).toMatch(/search_docs/)
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'search_docs'])
    const search = tools.find((tool) => tool.name === 'search_docs')!
    expect(search.inputSchema.required).toEqual(['query'])
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(['filter', 'pageSize', 'query'])
    expect(search.annotations?.readOnlyHint).toBe(true)
    await client.close()
  })

  test('search_docs returns ranked sections with title, absolute URL and content', async () => {
    const client = await connect(t.app, 'demo', t.keys.assistant)
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'install the Go SDK', pageSize: 3 } })
    expect(result.isError).toBeFalsy()
    const { results } = result.structuredContent as {
      results: Array<{ title: string; path: string; url: string; content: string; score: number }>
    }
    expect(results).toHaveLength(3)
    expect(results[0]!.path).toBe('sdks/go')
    expect(results[0]!.title).toBe('Go SDK')
    expect(results[0]!.url).toMatch(new RegExp(`^${BASE}/sdks/go(#|$)`))
    expect(results[0]!.content).toMatch(/go get/)
    expect(results.map((r) => r.score)).toEqual([...results.map((r) => r.score)].sort((a, b) => b - a))
    expect(text(result)).toContain(`URL: ${results[0]!.url}`)
    await client.close()
  })

  test('search_docs applies the filter and refuses bad arguments', async () => {
    const client = await connect(t.app, 'demo', t.keys.assistant)
    const filtered = await client.callTool({
      name: 'search_docs',
      arguments: { query: 'list flags', filter: { version: 'v1' }, pageSize: 5 },
    })
    const { results } = filtered.structuredContent as { results: Array<{ path: string }> }
    expect(results.length).toBeGreaterThan(0)
    expect(results.every((r) => !r.path.startsWith('api-reference/v2/'))).toBe(true)
    const bad = await client.callTool({ name: 'search_docs', arguments: { query: '', pageSize: 0 } })
    expect(bad.isError).toBe(true)
    expect(text(bad)).toMatch(/query|pageSize/)
    await client.close()
  })

  test('get_page returns the page markdown; an unknown page is a tool error', async () => {
    const client = await connect(t.app, 'demo', t.keys.assistant)
    const page = await client.callTool({ name: 'get_page', arguments: { path: 'quickstart' } })
    expect(page.isError).toBeFalsy()
    expect(text(page)).toMatch(/^# Quickstart\n/)
    expect(text(page)).toMatch(/\]\(http:\/\/docs\.test\/[a-z]/) // the site's links made absolute
    expect(text(page)).not.toMatch(/\]\(\/[^/]/)
    expect(text(page).replace(/^```[\s\S]*?^```/gm, '')).not.toMatch(/<[A-Z][A-Za-z]*[\s/>]/) // MDX components reduced
    const byUrl = await client.callTool({ name: 'get_page', arguments: { path: `${BASE}/sdks/go.md` } })
    expect(text(byUrl)).toMatch(/^# Go SDK/)
    const missing = await client.callTool({ name: 'get_page', arguments: { path: 'no/such/page' } })
    expect(missing.isError).toBe(true)
    expect(text(missing)).toMatch(/No page at "no\/such\/page"/)
    const hidden = await client.callTool({ name: 'get_page', arguments: { path: 'internal/release-checklist' } })
    expect(hidden.isError).toBe(true)
    await client.close()
  })

  test('every listed page is a resource, readable as markdown', async () => {
    const client = await connect(t.app, 'demo', t.keys.assistant)
    const { resources } = await client.listResources()
    const pages = (await t.docent.context.search.corpus('demo')).pages().filter((page) => !page.hidden)
    expect(resources.map((r) => r.name).sort()).toEqual(pages.map((page) => page.path).sort())
    expect(resources.some((r) => r.name.startsWith('internal/'))).toBe(false)
    const go = resources.find((r) => r.name === 'sdks/go')!
    expect(go.uri).toBe(`${BASE}/sdks/go.md`)
    expect(go.mimeType).toBe('text/markdown')
    const read = await client.readResource({ uri: go.uri })
    expect((read.contents[0] as { text: string }).text).toMatch(/^# Go SDK/)
    // The resource URI is a real URL: the same markdown is served there.
    const served = await t.app.request(go.uri, { headers: { authorization: `Bearer ${t.keys.assistant}` } })
    expect(served.status).toBe(200)
    expect(await served.text()).toBe((read.contents[0] as { text: string }).text)
    await expect(client.readResource({ uri: `${BASE}/nope.md` })).rejects.toThrow(/no docs page/)
    await client.close()
  })
})

describe('MCP auth', () => {
  const refusal = async (domain: string, key?: string) => {
    const error = await connect(t.app, domain, key).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(StreamableHTTPError)
    return error as StreamableHTTPError
  }

  test("a non-public project refuses a client without a key (401), with another domain's key or an admin key (403)", async () => {
    expect((await refusal('demo')).code).toBe(401)
    expect((await refusal('demo', 'svc_dsc_notarealkeyatallnotarealkey')).code).toBe(401)
    expect((await refusal('demo', t.keys.otherAssistant)).code).toBe(403)
    expect((await refusal('demo', t.keys.admin)).code).toBe(403)
  })

  test('a public project needs no key, but a wrong key is still refused', async () => {
    const client = await connect(t.app, 'acme.example')
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'percentage rollout' } })
    const { results } = result.structuredContent as { results: Array<{ url: string }> }
    expect(results.length).toBeGreaterThan(0)
    // No HTML site for this project: its URLs point at the page markdown, which resolves.
    expect(results[0]!.url).toMatch(new RegExp(`^${BASE}/docs/acme\\.example/.+\\.md(#|$)`))
    expect((await t.app.request(results[0]!.url)).status).toBe(200)
    // Not the site project: its pages' markdown lives under /docs/{domain}/.
    const { resources } = await client.listResources()
    expect(resources.every((r) => r.uri.startsWith(`${BASE}/docs/acme.example/`))).toBe(true)
    expect((await t.app.request(resources[0]!.uri)).status).toBe(200)
    await client.close()
    expect((await refusal('acme.example', 'svc_dsc_notarealkeyatallnotarealkey')).code).toBe(401)
    expect((await refusal('acme.example', t.keys.assistant)).code).toBe(403)
    const keyed = await connect(t.app, 'acme.example', t.keys.otherAssistant)
    await keyed.close()
  })

  test('refusals are {"error"} like the rest of the API: no key 401, unknown domain 404, GET 405, transport refusals', async () => {
    const post = (path: string, headers: Record<string, string>, body = '{}') => t.app.request(path, { method: 'POST', headers, body })
    const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    const noKey = await post('/mcp/demo', { ...mcpHeaders, origin: 'https://docs.example.com' })
    expect(noKey.status).toBe(401)
    expect(noKey.headers.get('www-authenticate')).toBe('Bearer')
    // A browser-based client may read the refusal.
    expect(noKey.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(await noKey.json()).toEqual({ error: expect.stringMatching(/Authorization/), code: 'unauthorized' })
    const unknown = await post('/mcp/nope.example', mcpHeaders)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ error: 'no MCP server for domain "nope.example"', code: 'not_found' })
    const get = await t.app.request('/mcp/acme.example')
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST, OPTIONS')
    expect(await get.json()).toEqual({ error: expect.stringMatching(/stateless/), code: 'method_not_allowed' })
    expect((await t.app.request('/mcp/acme.example/')).status).toBe(405) // trailing slash: the same endpoint
    const notAcceptable = await post(
      '/mcp/acme.example',
      { 'content-type': 'application/json' },
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    )
    expect(notAcceptable.status).toBe(406)
    expect(await notAcceptable.json()).toEqual({ error: expect.stringMatching(/Not Acceptable/) })
    const garbage = await post('/mcp/acme.example', mcpHeaders, '{not json')
    expect(garbage.status).toBe(400)
    expect(await garbage.json()).toEqual({ error: expect.stringMatching(/Parse error/) })
    // A batch would run every search it holds for one unit of the limit: one message per request.
    const search = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search_docs', arguments: { query: 'flags' } },
    })
    const batch = await post('/mcp/acme.example', mcpHeaders, JSON.stringify(Array.from({ length: 50 }, (_, i) => search(i))))
    expect(batch.status).toBe(400)
    expect(await batch.json()).toEqual({ error: expect.stringMatching(/batches are not supported/), code: 'invalid_request' })
    // Params of the wrong shape are the client's mistake (-32602, in words), never an internal error (-32603).
    for (const [args, got] of [
      [null, 'null'],
      ['flags', 'string'],
      [[], 'array'],
    ] as const) {
      const wrong = await post(
        '/mcp/acme.example',
        mcpHeaders,
        JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search_docs', arguments: args } }),
      )
      expect(wrong.status).toBe(200)
      expect(await wrong.json()).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: `invalid params: params.arguments: Invalid input: expected record, received ${got}` },
      })
    }
  })

  test('CORS: preflight granted to allowed origins (any origin on a public server), others refused', async () => {
    const preflight = (domain: string, origin: string) =>
      t.app.request(`/mcp/${domain}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      })
    const allowed = await preflight('demo', 'https://docs.example.com')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(allowed.headers.get('access-control-allow-headers')).toMatch(/mcp-protocol-version/)
    expect((await preflight('demo', 'https://evil.example')).status).toBe(403)
    // Docent's own pages are not cross-origin.
    const own = await t.app.request('http://docs.test/mcp/demo', {
      method: 'POST',
      headers: {
        origin: 'http://docs.test',
        authorization: `Bearer ${t.keys.assistant}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    })
    expect(own.status).toBe(200)
    const evil = await t.app.request('http://docs.test/mcp/demo', {
      method: 'POST',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${t.keys.assistant}` },
      body: '{}',
    })
    expect(evil.status).toBe(403)
    const open = await preflight('acme.example', 'http://localhost:6274')
    expect(open.status).toBe(204)
    expect(open.headers.get('access-control-allow-origin')).toBe('*')
  })

  test('CORS: answers carry the grant too, not only refusals, so a browser client reads them', async () => {
    const ping = (domain: string, origin: string, key?: string) =>
      t.app.request(`/mcp/${domain}`, {
        method: 'POST',
        headers: {
          origin,
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      })
    const open = await ping('acme.example', 'http://localhost:6274')
    expect(open.status).toBe(200)
    expect(open.headers.get('access-control-allow-origin')).toBe('*')
    expect(open.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/)
    const keyed = await ping('demo', 'https://docs.example.com', t.keys.assistant)
    expect(keyed.status).toBe(200)
    expect(keyed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(keyed.headers.get('vary')).toMatch(/Origin/)
    const notification = await t.app.request('/mcp/acme.example', {
      method: 'POST',
      headers: { origin: 'http://localhost:6274', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
    expect(notification.status).toBe(202)
    expect(notification.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('MCP rate limits', () => {
  test('over the organization limit, the client sees a 429 rate-limit error with Retry-After', async () => {
    const limited = await testDocent({ projects, limits: { organizationPerHour: 3 } }, stoppedClock)
    try {
      // initialize + notifications/initialized + tools/list = 3 requests; the GET stream probe is refused before counting.
      const client = await connect(limited.app, 'demo', limited.keys.assistant)
      await client.listTools()
      const error = await client.callTool({ name: 'search_docs', arguments: { query: 'flags' } }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(StreamableHTTPError)
      expect((error as StreamableHTTPError).code).toBe(429)
      expect((error as Error).message).toMatch(/rate limit exceeded/)
      await client.close()

      const raw = await limited.app.request(
        '/mcp/demo',
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${limited.keys.assistant}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        },
        { ip: '10.0.0.1' },
      )
      expect(raw.status).toBe(429)
      expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(raw.headers.get('ratelimit-limit')).toBe('3')
      expect(await raw.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32029, message: expect.stringMatching(/rate limit/) },
      })
    } finally {
      await limited.docent.stop()
    }
  })

  test('MCP shares the organization budget with the search endpoint', async () => {
    const limited = await testDocent({ projects, limits: { organizationPerHour: 2 } }, stoppedClock)
    try {
      for (let i = 0; i < 2; i++) {
        const search = await limited.app.request(
          '/discovery/v1/search/demo',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${limited.keys.assistant}`, 'content-type': 'application/json' },
            body: JSON.stringify({ query: 'flags' }),
          },
          { ip: '10.0.0.2' },
        )
        expect(search.status).toBe(200)
      }
      const error = await connect(limited.app, 'demo', limited.keys.assistant).catch((e: unknown) => e)
      expect((error as StreamableHTTPError).code).toBe(429)
    } finally {
      await limited.docent.stop()
    }
  })

  test('the per-IP hourly docs limit counts MCP requests too', async () => {
    const limited = await testDocent({ projects, limits: { docsIpPerHour: 2 } }, stoppedClock)
    try {
      const error = await connect(limited.app, 'acme.example', undefined, '10.9.9.9')
        .then((client) => client.listTools())
        .catch((e: unknown) => e)
      expect((error as StreamableHTTPError).code).toBe(429)
      // Another address is not affected.
      const client = await connect(limited.app, 'acme.example', undefined, '10.9.9.8')
      await client.close()
    } finally {
      await limited.docent.stop()
    }
  })
})
