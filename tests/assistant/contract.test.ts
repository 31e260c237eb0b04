import { afterAll, describe, expect, test } from 'vitest'
import { bearer, json, stoppedClock, testDocent } from '../support/app.ts'

// Every bound and error of the assistant contract (API.md "Assistant"), for both protocol versions.

type Version = 'v1' | 'v2'
const message = (version: Version, role: string, text: string) =>
  version === 'v1' ? { id: `m-${role}`, role, content: text } : { id: `m-${role}`, role, parts: [{ type: 'text', text }] }
const bodyOf = (version: Version, extra: Record<string, unknown> = {}) => ({
  fp: 'anonymous',
  messages: [message(version, 'user', 'How do percentage rollouts work?')],
  ...extra,
})
const path = (version: Version, domain = 'demo') => `/discovery/${version}/assistant/${domain}/message`

async function expectError(response: Response, status: number, pattern: RegExp) {
  const body = await response.json()
  expect({ status: response.status, body }).toMatchObject({ status, body: { error: expect.stringMatching(pattern) } })
}

describe.each(['v1', 'v2'] as const)('%s message bounds', (version) => {
  const t = testDocent()
  afterAll(async () => (await t).docent.stop())
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const { app, keys } = await t
    return app.request(path(version), json(body, { ...bearer(keys.assistant), ...headers }), { ip: '10.0.0.1' })
  }

  test('a valid request streams 200 with X-Thread-Id', async () => {
    const response = await post(bodyOf(version))
    expect(response.status).toBe(200)
    expect(response.headers.get('x-thread-id')).toMatch(/^thr_/)
    expect(await response.text()).toContain(response.headers.get('x-thread-id'))
  })

  test.each([
    ['fp missing', { fp: undefined }, /^fp: is required/],
    ['fp empty', { fp: '' }, /^fp: must not be empty/],
    ['fp of 257 chars', { fp: 'f'.repeat(257) }, /^fp: must be at most 256 characters/],
    ['no messages', { messages: [] }, /^messages: must have at least 1 item$/],
    ['threadId of 201 chars', { threadId: 't'.repeat(201) }, /^threadId: must be at most 200 characters/],
    ['retrievalPageSize 0', { retrievalPageSize: 0 }, /^retrievalPageSize: must be at least 1/],
    ['retrievalPageSize 21', { retrievalPageSize: 21 }, /^retrievalPageSize: must be at most 20/],
    ['retrievalPageSize 2.5', { retrievalPageSize: 2.5 }, /^retrievalPageSize: must be an integer$/],
    ['retrievalPageSize "3"', { retrievalPageSize: '3' }, /^retrievalPageSize: must be a number$/],
    ['threadId a number', { threadId: 5 }, /^threadId: must be a string$/],
    ['filter not an object', { filter: 'v2' }, /^filter: must be an object$/],
    ['filter.groups not a list', { filter: { groups: 'SDKs' } }, /^filter\.groups: must be an array$/],
    [
      '11 context items',
      { context: Array.from({ length: 11 }, () => ({ type: 'code', value: 'x' })) },
      /^context: must have at most 10 items/,
    ],
    [
      'a context value of 10,001 chars',
      { context: [{ type: 'code', value: 'x'.repeat(10_001) }] },
      /^context\.0\.value: must be at most 10000 characters/,
    ],
    ['an unknown context type', { context: [{ type: 'image', value: 'x' }] }, /^context\.0\.type: must be one of "code", "textSelection"$/],
    ['filter.version of 101 chars', { filter: { version: 'v'.repeat(101) } }, /^filter\.version: must be at most 100 characters/],
    [
      'a context path of 501 chars',
      { context: [{ type: 'textSelection', value: 'x', path: `/${'p'.repeat(500)}` }] },
      /^context\.0\.path: must be at most 500 characters/,
    ],
    [
      'a message id of 201 chars',
      { messages: [{ ...message(version, 'user', 'hi'), id: 'i'.repeat(201) }] },
      /^messages\.0\.id: must be at most 200 characters/,
    ],
    ['currentPath of 201 chars', { currentPath: `/${'p'.repeat(200)}` }, /^currentPath: must be at most 200 characters$/],
  ])('%s → 400 naming the field', async (_name, extra, pattern) => {
    await expectError(await post(bodyOf(version, extra)), 400, pattern)
  })

  test('a currentPath of exactly 200 chars is accepted', async () => {
    const response = await post(bodyOf(version, { currentPath: `/${'p'.repeat(199)}` }))
    expect(response.status).toBe(200)
    await response.text()
  })

  test('101 messages, or more than 100,000 characters in total → 400', async () => {
    const many = Array.from({ length: 101 }, (_, i) => message(version, i % 2 ? 'assistant' : 'user', 'hi'))
    await expectError(await post(bodyOf(version, { messages: many })), 400, /^messages: must have at most 100 items/)
    const big = [
      message(version, 'user', 'x'.repeat(60_000)),
      message(version, 'assistant', 'ok'),
      message(version, 'user', 'y'.repeat(40_001)),
    ]
    await expectError(await post(bodyOf(version, { messages: big })), 400, /^messages: total text must be at most 100000 characters/)
  })

  test('the total counts characters as every bound does: an emoji is one', async () => {
    const emoji = [
      message(version, 'user', '😀'.repeat(60_000)),
      message(version, 'assistant', 'ok'),
      message(version, 'user', 'rollouts?'),
    ]
    const response = await post(bodyOf(version, { messages: emoji }))
    expect(response.status).toBe(200)
    await response.text()
    const over = [message(version, 'user', '😀'.repeat(99_999)), message(version, 'assistant', 'ok')]
    await expectError(await post(bodyOf(version, { messages: over })), 400, /^messages: total text must be at most 100000 characters/)
  })

  test("the last message must be the user's and have text", async () => {
    const last = [message(version, 'user', 'hi'), message(version, 'assistant', 'hello')]
    await expectError(await post(bodyOf(version, { messages: last })), 400, /^messages: the last message must have role "user"/)
    await expectError(
      await post(bodyOf(version, { messages: [message(version, 'user', '   ')] })),
      400,
      /^messages: the last message has no text/,
    )
    await expectError(
      await post(bodyOf(version, { messages: [{ role: 'reader', content: 'hi', parts: [] }] })),
      400,
      /^messages\.0\.role: /,
    )
  })

  test('not JSON, or not a JSON content type → 400 / 415', async () => {
    await expectError(await post('{"fp":'), 400, /not valid JSON/)
    const { app, keys } = await t
    const xml = await app.request(path(version), {
      method: 'POST',
      headers: { ...bearer(keys.assistant), 'content-type': 'application/xml' },
      body: '<q/>',
    })
    expect(xml.status).toBe(415)
  })

  test('a body over 1 MiB → 413', async () => {
    await expectError(await post(bodyOf(version, { fp: 'x'.repeat(1024 * 1024 + 1) })), 413, /at most 1048576 bytes/)
  })

  test('an unknown threadId starts a new, unguessable thread', async () => {
    const response = await post(bodyOf(version, { threadId: 'thr_made_up' }))
    const threadId = response.headers.get('x-thread-id')
    expect(threadId).not.toBe('thr_made_up')
    expect(threadId).toMatch(/^thr_[A-Za-z0-9_-]{22}$/)
    await response.text()
    const { store } = await t
    expect(await store.getThread('demo', threadId!)).toMatchObject({ fp: 'anonymous', messageCount: 2 })
  })

  test("another project's thread id is not continued", async () => {
    const { store } = await t
    await store.createThread({
      id: 'thr_of_acme',
      projectId: 'other',
      fp: 'x',
      createdAt: new Date(),
      updatedAt: new Date(),
      messageCount: 0,
    })
    const response = await post(bodyOf(version, { threadId: 'thr_of_acme' }))
    expect(response.headers.get('x-thread-id')).not.toBe('thr_of_acme')
    await response.text()
    expect((await store.getThread('other', 'thr_of_acme'))?.messageCount).toBe(0)
  })

  test("another reader's thread id is not continued: its turns are neither read back nor written to", async () => {
    const first = await post(
      bodyOf(version, { fp: 'reader-a', messages: [message(version, 'user', 'How do I rotate the SDK key of zebraproject?')] }),
    )
    const threadId = first.headers.get('x-thread-id')!
    await first.text()
    const other = await post(bodyOf(version, { fp: 'reader-b', threadId, messages: [message(version, 'user', 'and then?')] }))
    expect(other.headers.get('x-thread-id')).not.toBe(threadId)
    expect(await other.text()).not.toContain('zebraproject')
    const { store } = await t
    expect(await store.getThread('demo', threadId)).toMatchObject({ fp: 'reader-a', messageCount: 2 })
    // The reader it belongs to continues it.
    const same = await post(bodyOf(version, { fp: 'reader-a', threadId, messages: [message(version, 'user', 'and then?')] }))
    expect(same.headers.get('x-thread-id')).toBe(threadId)
    await same.text()
  })
})

describe('message shapes', () => {
  const t = testDocent()
  afterAll(async () => (await t).docent.stop())
  test('a v2 message with content → 400; a v1 message without text → 400', async () => {
    const { app, keys } = await t
    const v2 = bodyOf('v2', { messages: [{ id: 'a', role: 'user', content: 'hi', parts: [{ type: 'text', text: 'hi' }] }] })
    await expectError(
      await app.request(path('v2'), json(v2, bearer(keys.assistant))),
      400,
      /^messages\.0\.content: v2 messages carry parts, not content/,
    )
    const v1Empty = bodyOf('v1', { messages: [{ id: 'a', role: 'user', content: '' }] })
    await expectError(
      await app.request(path('v1'), json(v1Empty, bearer(keys.assistant))),
      400,
      /^messages\.0\.content: a v1 message needs text in content/,
    )
    const v1Missing = bodyOf('v1', { messages: [{ id: 'a', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] })
    await expectError(await app.request(path('v1'), json(v1Missing, bearer(keys.assistant))), 400, /^messages\.0\.content: is required/)
    // Whatever its role: an assistant message with nothing in it is no message either.
    const v1EmptyAnswer = bodyOf('v1', {
      messages: [
        { id: 'a', role: 'user', content: 'hi' },
        { id: 'b', role: 'assistant', content: '' },
        { id: 'c', role: 'user', content: 'how do I install' },
      ],
    })
    await expectError(
      await app.request(path('v1'), json(v1EmptyAnswer, bearer(keys.assistant))),
      400,
      /^messages\.1\.content: a v1 message needs text in content/,
    )
  })

  test('an AI SDK 4 answer stopped before its first word (its tool call in parts, no text) is kept in the conversation', async () => {
    const { app, keys } = await t
    const stopped = bodyOf('v1', {
      messages: [
        { id: 'a', role: 'user', content: 'hi' },
        { id: 'b', role: 'assistant', content: '', parts: [{ type: 'tool-invocation', toolInvocation: { toolName: 'search' } }] },
        { id: 'c', role: 'user', content: 'How do percentage rollouts work?' },
      ],
    })
    const response = await app.request(path('v1'), json(stopped, bearer(keys.assistant)))
    expect(response.status).toBe(200)
    await response.text()
  })

  test('a v2 text part whose text is no string → 400 naming it', async () => {
    const { app, keys } = await t
    for (const text of [5, null]) {
      const parts = [
        { type: 'text', text: 'How do percentage rollouts work?' },
        { type: 'text', text },
      ]
      await expectError(
        await app.request(path('v2'), json(bodyOf('v2', { messages: [{ id: 'a', role: 'user', parts }] }), bearer(keys.assistant))),
        400,
        /^messages\.0\.parts\.1\.text: a text part needs its text as a string/,
      )
    }
  })

  test('unknown part types are ignored, not errors', async () => {
    const { app, keys } = await t
    const parts = [
      { type: 'step-start' },
      { type: 'text', text: 'How do percentage rollouts work?' },
      {
        type: 'data-widget',
        data: { x: 1 },
      },
      { type: 'file', url: 'x', mediaType: 'image/png' },
      { type: `data-${'x'.repeat(200)}`, data: {} },
    ]
    const response = await app.request(
      path('v2'),
      json(bodyOf('v2', { messages: [{ id: 'a', role: 'user', parts }] }), bearer(keys.assistant)),
    )
    expect(response.status).toBe(200)
    expect(await response.text()).toMatch(/percentage rollout/i)
  })
})

describe('keys', () => {
  const t = testDocent()
  afterAll(async () => (await t).docent.stop())
  test("no key → 401; admin key → 403; another domain's key → 403; unknown domain → 403", async () => {
    const { app, keys } = await t
    await expectError(await app.request(path('v2'), json(bodyOf('v2'))), 401, /Authorization/)
    await expectError(await app.request(path('v2'), json(bodyOf('v2'), bearer('svc_dsc_notarealkeynotarealkey00'))), 401, /unknown API key/)
    await expectError(await app.request(path('v2'), json(bodyOf('v2'), bearer(keys.admin))), 403, /assistant key/)
    await expectError(await app.request(path('v2'), json(bodyOf('v2'), bearer(keys.otherAssistant))), 403, /not valid for domain "demo"/)
    await expectError(
      await app.request(path('v1', 'acme.example'), json(bodyOf('v1'), bearer(keys.assistant))),
      403,
      /not valid for domain "acme.example"/,
    )
    await expectError(
      await app.request(path('v2', 'nowhere.example'), json(bodyOf('v2'), bearer(keys.assistant))),
      403,
      /not valid for domain/,
    )
  })

  test('GET on a message endpoint → 405', async () => {
    const { app, keys } = await t
    const response = await app.request(path('v2'), { headers: bearer(keys.assistant) })
    expect(response.status).toBe(405)
  })
})

describe('CORS', () => {
  const t = testDocent()
  afterAll(async () => (await t).docent.stop())
  test('preflight from an allowed origin → 204 with the grant; another origin → 403', async () => {
    const { app } = await t
    const preflight = (origin: string) =>
      app.request(path('v2'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
      })
    const allowed = await preflight('https://docs.example.com')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(allowed.headers.get('access-control-allow-methods')).toContain('POST')
    await expectError(await preflight('https://evil.example'), 403, /origin not allowed/)
  })

  test('a streamed answer carries the grant and exposes X-Thread-Id; a foreign Origin gets 403', async () => {
    const { app, keys } = await t
    const response = await app.request(path('v2'), json(bodyOf('v2'), { ...bearer(keys.assistant), origin: 'https://docs.example.com' }))
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    expect(response.headers.get('access-control-expose-headers')).toContain('x-thread-id')
    await response.text()
    await expectError(
      await app.request(path('v1'), json(bodyOf('v1'), { ...bearer(keys.assistant), origin: 'https://evil.example' })),
      403,
      /not allowed/,
    )
  })
})

describe('rate limits → 429 with Retry-After and RateLimit-* headers', () => {
  const expect429 = async (response: Response, rule: RegExp) => {
    expect(response.status).toBe(429)
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(response.headers.get('ratelimit-remaining')).toBe('0')
    expect(Number(response.headers.get('ratelimit-reset'))).toBeGreaterThan(0)
    expect((await response.json()).error).toMatch(rule)
  }
  const send = async (
    app: Awaited<ReturnType<typeof testDocent>>['app'],
    key: string,
    ip = '10.0.0.1',
    headers: Record<string, string> = {},
  ) => {
    const response = await app.request(path('v2'), json(bodyOf('v2'), { ...bearer(key), ...headers }), { ip })
    if (response.status === 200) await response.text()
    return response
  }

  test('per assistant key per month', async () => {
    const { app, keys } = await testDocent({ limits: { assistantKeyPerMonth: 2 } })
    const first = await send(app, keys.assistant)
    expect(first.headers.get('ratelimit-limit')).toBe('2')
    expect(first.headers.get('ratelimit-remaining')).toBe('1')
    expect((await send(app, keys.assistant)).status).toBe(200)
    const refused = await send(app, keys.assistant)
    expect(refused.headers.get('ratelimit-limit')).toBe('2')
    await expect429(refused, /key-month/)
  })

  test('per organization per hour (feedback counts too)', async () => {
    const { app, keys } = await testDocent({ limits: { organizationPerHour: 2 } }, stoppedClock)
    expect((await send(app, keys.assistant)).status).toBe(200)
    const feedback = await app.request(
      '/discovery/v1/assistant/demo/feedback',
      json({ threadId: 'thr_x', messageId: 'm', rating: 'up' }, bearer(keys.assistant)),
    )
    expect(feedback.status).toBe(404)
    await expect429(await send(app, keys.assistant), /org-hour/)
  })

  test('per client IP per day, from the connection; X-Forwarded-For only with trustProxy', async () => {
    const direct = await testDocent({ limits: { ipPerDay: 1 } }, stoppedClock)
    expect((await send(direct.app, direct.keys.assistant, '10.0.0.1', { 'x-forwarded-for': '1.1.1.1' })).status).toBe(200)
    await expect429(await send(direct.app, direct.keys.assistant, '10.0.0.1', { 'x-forwarded-for': '2.2.2.2' }), /ip-day/)
    expect((await send(direct.app, direct.keys.assistant, '10.0.0.2')).status).toBe(200)

    const proxied = await testDocent({ limits: { ipPerDay: 1 }, trustProxy: true }, stoppedClock)
    expect((await send(proxied.app, proxied.keys.assistant, '10.0.0.1', { 'x-forwarded-for': '1.1.1.1' })).status).toBe(200)
    expect((await send(proxied.app, proxied.keys.assistant, '10.0.0.1', { 'x-forwarded-for': '2.2.2.2, 10.0.0.1' })).status).toBe(200)
    await expect429(await send(proxied.app, proxied.keys.assistant, '10.0.0.1', { 'x-forwarded-for': '1.1.1.1' }), /ip-day/)
  })
})

test('docs that cannot be loaded → 503 with a clear error, and no empty thread is left behind', async () => {
  const t = await testDocent({
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'tests/assistant/no-such-docs' } }],
  })
  const response = await t.app.request(path('v2'), json(bodyOf('v2'), bearer(t.keys.assistant)))
  await expectError(response, 503, /docs of this project cannot be loaded/)
  expect((await t.store.listThreads('demo', { limit: 10 })).items).toEqual([])
})
