import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { z } from 'zod'
import { bearer, json, testDocent } from '../../tests/support/app.ts'
import { createKey } from '../keys/keys.ts'
import { consoleLogger } from '../log.ts'
import { MemoryStore } from '../store/memory.ts'
import { bodyLimit } from './body-limit.ts'
import { errorHandler } from './errors.ts'
import { adminGuard, agentWriteGuard, assistantGuard } from './guards.ts'
import { type RateRule, rateLimit, windowOf } from './rate-limit.ts'
import { type AppEnv, route, type RouteDeclaration } from './route.ts'
import { readJson } from './validate.ts'

/** The docent app plus probe routes behind each guard, so the middleware is tested without any feature. */
async function probeApp(limits: Record<string, number> = {}) {
  const t = await testDocent({ limits })
  const ctx = t.docent.context
  const probe = new Hono<AppEnv>()
  probe.onError(errorHandler(consoleLogger('silent')))
  const declare = <Auth>(declaration: Pick<RouteDeclaration<Auth, z.ZodNever, z.ZodNever>, 'method' | 'path' | 'guard' | 'handler'>) =>
    route({ ...declaration, tag: 'probe', summary: 'probe', responses: { 200: { description: 'ok' } } }).register(probe)
  declare({
    method: 'get',
    path: '/admin/{projectId}',
    guard: adminGuard(ctx),
    handler: (c, { auth }) => c.json({ project: auth.project.id }),
  })
  declare({ method: 'post', path: '/agent/{projectId}', guard: agentWriteGuard(ctx), handler: (c) => c.json({ ok: true }) })
  declare({
    method: 'post',
    path: '/assistant/{domain}',
    guard: assistantGuard(ctx, { quota: 'answer' }),
    handler: async (c) => c.json(await readJson(c, z.object({ q: z.string().max(5) }))),
  })
  return { ...t, probe }
}

describe('auth', () => {
  test('no key, malformed header, unknown key → 401 with a JSON error', async () => {
    const { probe, keys } = await probeApp()
    for (const headers of [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      bearer('svc_unknownunknownunknown'),
      bearer('not-a-key'),
    ]) {
      const response = await probe.request('/admin/demo', { headers })
      expect(response.status).toBe(401)
      expect((await response.json()).error).toMatch(/key|Authorization/)
    }
    expect((await probe.request('/admin/demo', { headers: bearer(keys.admin) })).status).toBe(200)
  })

  test('wrong kind of key, or another organization → 403; unknown project → 404', async () => {
    const { probe, keys } = await probeApp()
    expect((await probe.request('/admin/demo', { headers: bearer(keys.assistant) })).status).toBe(403)
    expect((await probe.request('/admin/demo', { headers: bearer(keys.otherAdmin) })).status).toBe(403)
    expect((await probe.request('/admin/nope', { headers: bearer(keys.admin) })).status).toBe(404)
    expect((await probe.request('/assistant/demo', json({ q: 'a' }, bearer(keys.admin)))).status).toBe(403)
    expect((await probe.request('/assistant/acme.example', json({ q: 'a' }, bearer(keys.assistant)))).status).toBe(403)
    expect((await probe.request('/assistant/unknown.example', json({ q: 'a' }, bearer(keys.assistant)))).status).toBe(403)
    expect((await probe.request('/assistant/demo', json({ q: 'a' }, bearer(keys.assistant)))).status).toBe(200)
  })

  test('revoked and expired keys → 401', async () => {
    const { probe, store } = await probeApp()
    const revoked = await createKey(store, { kind: 'admin', organization: 'demo' })
    await store.revokeKey(revoked.record.id, new Date())
    const expired = await createKey(store, { kind: 'admin', organization: 'demo', expiresAt: new Date(Date.now() - 1000) })
    const revokedResponse = await probe.request('/admin/demo', { headers: bearer(revoked.secret) })
    expect(revokedResponse.status).toBe(401)
    expect(await revokedResponse.json()).toEqual({ error: 'API key revoked', code: 'unauthorized' })
    expect(await (await probe.request('/admin/demo', { headers: bearer(expired.secret) })).json()).toEqual({
      error: 'API key expired',
      code: 'unauthorized',
    })
  })
})

describe('bodies', () => {
  test('garbage JSON, empty body, wrong content type and schema errors → 400/415 naming the problem', async () => {
    const { probe, keys } = await probeApp()
    const garbage = await probe.request('/assistant/demo', json('{"q": nope', bearer(keys.assistant)))
    expect(garbage.status).toBe(400)
    expect(await garbage.json()).toEqual({ error: 'request body is not valid JSON', code: 'invalid_request' })
    expect((await probe.request('/assistant/demo', json('', bearer(keys.assistant)))).status).toBe(400)
    const long = await probe.request('/assistant/demo', json({ q: '123456' }, bearer(keys.assistant)))
    expect(await long.json()).toEqual({ error: 'q: must be at most 5 characters', code: 'invalid_request' })
    const missing = await probe.request('/assistant/demo', json({}, bearer(keys.assistant)))
    expect(await missing.json()).toEqual({ error: 'q: is required', code: 'invalid_request' })
    const xml = await probe.request('/assistant/demo', {
      method: 'POST',
      headers: { ...bearer(keys.assistant), 'content-type': 'application/xml' },
      body: '<q/>',
    })
    expect(xml.status).toBe(415)
  })

  test('a 2 MiB body → 413 on the real app, with or without content-length', async () => {
    const { app, keys } = await probeApp()
    const big = 'x'.repeat(2 * 1024 * 1024)
    const response = await app.request('/v2/agent/demo/job', json({ prompt: big }, bearer(keys.admin)))
    expect(response.status).toBe(413)
    expect((await response.json()).error).toMatch(/at most 1048576 bytes/)
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode(big.slice(0, 1024 * 1024)))
        controller.close()
      },
    })
    const chunked = await app.request('/v2/agent/demo/job', {
      method: 'POST',
      headers: { ...bearer(keys.admin), 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(chunked.status).toBe(413)
  })
})

describe('slow bodies', () => {
  test('a body still arriving after timeoutSeconds → 408 with its own code, and the connection closes', async () => {
    const app = new Hono<AppEnv>()
    app.onError(errorHandler(consoleLogger('silent')))
    app.use(bodyLimit({ maxBytes: 1024, timeoutSeconds: 0.05 }))
    app.post('/slow', async (c) => c.json(await readJson(c, z.object({ q: z.string() }))))
    // One byte of the ten announced, then nothing: the client never finishes its body.
    const trickle = new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('{')) })
    const response = await app.request('/slow', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '10' },
      body: trickle,
      duplex: 'half',
    } as RequestInit)
    expect(response.status).toBe(408)
    expect(response.headers.get('connection')).toBe('close')
    expect(await response.json()).toEqual({ error: 'the request body did not arrive within 0.05 s', code: 'request_timeout' })
  })
})

describe('app basics', () => {
  test('healthz, 404 and 405 are JSON', async () => {
    const { app } = await probeApp()
    expect(await (await app.request('/healthz')).json()).toEqual({ ok: true })
    const missing = await app.request('/nope/nothing/here')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ error: 'not found', code: 'not_found' })
    const wrongMethod = await app.request('/healthz', { method: 'DELETE' })
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD')
    expect(wrongMethod.headers.get('x-request-id')).toBeTruthy()
  })

  test('unknown errors → 500 with a request id and nothing internal', async () => {
    const lines: string[] = []
    const app = new Hono()
    const push = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${JSON.stringify(fields)}`)
    app.onError(errorHandler({ warn: push, error: push }))
    app.get('/boom', () => {
      throw new Error('secret database password in stack')
    })
    const response = await app.request('/boom')
    expect(response.status).toBe(500)
    const body = await response.json()
    expect(body.error).toMatch(/^internal error \(request id /)
    expect(JSON.stringify(body)).not.toContain('secret')
    expect(lines.join('')).toContain('secret database password')
    // The log line says which request failed, not only its id.
    expect(lines.join('')).toContain('"method":"GET","path":"/boom"')
  })

  test('openapi.json is generated from the shared schemas', async () => {
    const { app } = await probeApp()
    const doc = await (await app.request('/openapi.json')).json()
    expect(doc.openapi).toBe('3.1.0')
    const resolve = (schema: { $ref?: string }) => (schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema)
    const create = doc.paths['/v2/agent/{projectId}/job'].post
    expect(resolve(create.requestBody.content['application/json'].schema).properties.prompt).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 20000,
    })
    expect(resolve(create.responses[200].content['application/json'].schema).properties.status.enum).toEqual([
      'active',
      'completed',
      'archived',
      'failed',
    ])
    const v2 = resolve(doc.paths['/discovery/v2/assistant/{domain}/message'].post.requestBody.content['application/json'].schema)
    expect(v2.properties.currentPath.maxLength).toBe(200)
  })
})

describe('rate limits', () => {
  test('fixed windows are calendar month, day and hour in UTC', () => {
    const now = new Date('2026-02-15T13:45:10Z')
    expect(windowOf('month', now)).toEqual({ start: new Date('2026-02-01T00:00:00Z'), end: new Date('2026-03-01T00:00:00Z') })
    expect(windowOf('day', now)).toEqual({ start: new Date('2026-02-15T00:00:00Z'), end: new Date('2026-02-16T00:00:00Z') })
    expect(windowOf('hour', now)).toEqual({ start: new Date('2026-02-15T13:00:00Z'), end: new Date('2026-02-15T14:00:00Z') })
    expect(windowOf('month', new Date('2026-12-31T23:59:59Z')).end).toEqual(new Date('2027-01-01T00:00:00Z'))
  })

  /**
   * `GET /x` behind `rules`, on a clock `minutes` into the current hour (counters expire by the store's clock, so the
   * test's windows sit at the real current hour); `at` moves the clock.
   */
  function limitedApp(rules: RateRule[], minutes: number) {
    // A fixed hour, not the current one: in the day's last hour the hour and the day end together, and which of two
    // full limits frees last would depend on when the test runs.
    const hour = Date.parse('2026-03-10T10:00:00Z')
    let now = new Date(hour + minutes * 60_000)
    const app = new Hono()
    app.onError(errorHandler(consoleLogger('silent')))
    app.get('/x', rateLimit({ store: new MemoryStore(), now: () => now, rules: () => rules }), (c) => c.text('ok'))
    return { app, now: () => now, at: (minutesIn: number) => (now = new Date(hour + minutesIn * 60_000)) }
  }

  test('the request over the limit → 429 with Retry-After and RateLimit headers; the window resets', async () => {
    const { app, at } = limitedApp([{ name: 'test', limit: 2, window: 'hour', key: () => 'k' }], 59)
    const first = await app.request('/x')
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect((await app.request('/x')).status).toBe(200)
    const refused = await app.request('/x')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('60')
    expect(refused.headers.get('ratelimit-limit')).toBe('2')
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    expect(refused.headers.get('ratelimit-reset')).toBe('60')
    expect((await refused.json()).error).toMatch(/rate limit exceeded/)
    at(60 + 1 / 60)
    expect((await app.request('/x')).status).toBe(200)
  })

  test('assistant limits count per key, organization and IP; agent writes per project', async () => {
    const { probe, keys } = await probeApp({ ipPerDay: 3, agentPerProjectPerHour: 2 })
    const ask = (ip: string) => probe.request('/assistant/demo', json({ q: 'a' }, bearer(keys.assistant)), { ip })
    expect((await ask('10.0.0.1')).status).toBe(200)
    expect((await ask('10.0.0.1')).status).toBe(200)
    expect((await ask('10.0.0.1')).status).toBe(200)
    const refused = await ask('10.0.0.1')
    expect(refused.status).toBe(429)
    expect((await refused.json()).error).toMatch(/ip-day/)
    expect((await ask('10.0.0.2')).status).toBe(200)

    const write = () => probe.request('/agent/demo', { method: 'POST', headers: bearer(keys.admin) })
    expect((await write()).status).toBe(200)
    expect((await write()).status).toBe(200)
    expect((await write()).status).toBe(429)
  })

  test('of several full limits, Retry-After names the one that frees last', async () => {
    const { app, now } = limitedApp(
      [
        { name: 'per-hour', limit: 1, window: 'hour', key: () => 'k' },
        { name: 'per-day', limit: 1, window: 'day', key: () => 'k' },
      ],
      30,
    )
    expect((await app.request('/x')).status).toBe(200)
    const refused = await app.request('/x')
    expect(refused.status).toBe(429)
    const untilTomorrow = Math.ceil((windowOf('day', now()).end.getTime() - now().getTime()) / 1000)
    expect(refused.headers.get('retry-after')).toBe(String(untilTomorrow))
    expect((await refused.json()).error).toMatch(/per-day/)
  })

  test('behind a trusted proxy, the address is the one it saw (the last X-Forwarded-For entry), in one form', async () => {
    const t = await testDocent({ trustProxy: true, limits: { ipPerDay: 1 } })
    const ask = (forwarded: string) =>
      t.app.request(
        '/discovery/v2/assistant/demo/message',
        json(
          { fp: 'a', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'install' }] }] },
          {
            ...bearer(t.keys.assistant),
            'x-forwarded-for': forwarded,
          },
        ),
        { ip: '10.0.0.9' },
      )
    const first = await ask('6.6.6.1, 203.0.113.7')
    expect(first.status).toBe(200)
    await first.text()
    // What the client wrote before the proxy's entry changes nothing; nor does writing the address another way.
    for (const forwarded of ['6.6.6.2, 203.0.113.7', '203.0.113.7', '1.1.1.1,::ffff:203.0.113.7']) {
      expect((await ask(forwarded)).status, forwarded).toBe(429)
    }
    // One IPv6 network is one client.
    expect((await ask('2001:db8:1:2::1')).status).toBe(200)
    expect((await ask('2001:db8:1:2:ffff::9')).status).toBe(429)
    await t.docent.stop()
  })

  test('X-Forwarded-For is ignored unless trustProxy is set', async () => {
    const { probe, keys } = await probeApp({ ipPerDay: 1 })
    const ask = (forwarded: string) =>
      probe.request('/assistant/demo', json({ q: 'a' }, { ...bearer(keys.assistant), 'x-forwarded-for': forwarded }), { ip: '10.0.0.9' })
    expect((await ask('1.1.1.1')).status).toBe(200)
    expect((await ask('2.2.2.2')).status).toBe(429)
  })
})

describe('CORS', () => {
  test('allowed origins get the grant; others get 403 and none', async () => {
    const { probe, keys } = await probeApp()
    const preflight = await probe.request('/assistant/demo', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://docs.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('authorization, content-type')

    const badPreflight = await probe.request('/assistant/demo', { method: 'OPTIONS', headers: { origin: 'https://evil.example' } })
    expect(badPreflight.status).toBe(403)
    expect(badPreflight.headers.get('access-control-allow-origin')).toBeNull()

    const allowed = await probe.request(
      '/assistant/demo',
      json({ q: 'a' }, { ...bearer(keys.assistant), origin: 'https://docs.example.com' }),
    )
    expect(allowed.status).toBe(200)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(allowed.headers.get('access-control-expose-headers')).toContain('x-thread-id')

    const refused = await probe.request('/assistant/demo', json({ q: 'a' }, { ...bearer(keys.assistant), origin: 'https://evil.example' }))
    expect(refused.status).toBe(403)
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()

    // Errors after CORS (here: no key) still carry the grant, so a browser can read them.
    const unauthorized = await probe.request('/assistant/demo', json({ q: 'a' }, { origin: 'https://docs.example.com' }))
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')

    // The server's own pages are not cross-origin: their requests pass without a grant.
    const own = await probe.request(
      'http://docent.internal:8787/assistant/demo',
      json({ q: 'a' }, { ...bearer(keys.assistant), origin: 'http://docent.internal:8787' }),
    )
    expect(own.status).toBe(200)
    expect(own.headers.get('access-control-allow-origin')).toBeNull()
  })
})
