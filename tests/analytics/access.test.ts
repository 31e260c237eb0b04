import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MAX_EVENTS_BODY_BYTES } from '../../shared/events.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { DATE_PAGED_LISTS, forgeCursor, RANK_PAGED_LISTS } from './support.ts'

// Who may call the analytics API and what it refuses: admin keys of the project's organization only (another
// organization's admin key and any assistant key: 403), bad input a 400 naming the field, the events body bounded.

type TestDocent = Awaited<ReturnType<typeof testDocent>>
let t: TestDocent
let feedbackId: string
let gapId: string
let jobId: string
let threadId: string

beforeAll(async () => {
  t = await testDocent()
  const answer = await t.app.request(
    '/discovery/v2/assistant/demo/message',
    json(
      { fp: 'a', messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text: 'Is there a Ruby SDK?' }] }] },
      bearer(t.keys.assistant),
    ),
  )
  threadId = answer.headers.get('x-thread-id')!
  const messageId = (await answer.text()).match(/"messageId":"([^"]+)"/)![1]!
  await t.app.request('/discovery/v1/assistant/demo/feedback', json({ threadId, messageId, rating: 'down' }, bearer(t.keys.assistant)))
  const admin = bearer(t.keys.admin)
  feedbackId = (
    (await (await t.app.request('/v1/analytics/demo/feedback', { headers: admin })).json()) as { feedback: Array<{ id: string }> }
  ).feedback[0]!.id
  gapId = ((await (await t.app.request('/v1/analytics/demo/gaps', { headers: admin })).json()) as { gaps: Array<{ id: string }> }).gaps[0]!
    .id
  jobId = ((await (await t.app.request('/v2/agent/demo/job', json({ prompt: 'Fix misspellings' }, admin))).json()) as { id: string }).id
})
afterAll(() => t?.docent.stop())

const endpoints = () =>
  [
    ['GET', '/v1/analytics/demo/assistant'],
    ['GET', '/v1/analytics/demo/assistant?format=csv'],
    ['GET', `/v1/analytics/demo/assistant/threads/${threadId}`],
    ['GET', '/v1/analytics/demo/assistant/caller-stats'],
    ['GET', '/v1/analytics/demo/feedback'],
    ['GET', '/v1/analytics/demo/feedback/by-page'],
    ['PATCH', `/v1/analytics/demo/feedback/${feedbackId}`, { status: 'resolved' }],
    ['GET', '/v1/analytics/demo/searches'],
    ['GET', '/v1/analytics/demo/searches?format=ndjson'],
    ['GET', '/v1/analytics/demo/gaps'],
    ['GET', `/v1/analytics/demo/gaps/${gapId}`],
    ['POST', `/v1/analytics/demo/gaps/${gapId}/dismiss`],
    ['POST', `/v1/analytics/demo/gaps/${gapId}/reopen`],
    ['POST', `/v1/analytics/demo/gaps/${gapId}/fix`, { text: 'Ruby: gem install lumen-flags' }],
    ['POST', `/v2/agent/demo/job/${jobId}/merge`],
  ] as const

const send = (method: string, path: string, key: string | undefined, body?: unknown) =>
  t.app.request(path, {
    method,
    headers: { ...(key ? bearer(key) : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })

describe('analytics access', () => {
  test('every endpoint refuses another organization’s admin key and every assistant key (403), and no key (401)', async () => {
    for (const [method, path, body] of endpoints()) {
      for (const key of [t.keys.otherAdmin, t.keys.assistant, t.keys.otherAssistant]) {
        const response = await send(method, path, key, body)
        expect(response.status, `${method} ${path}`).toBe(403)
        expect(((await response.json()) as { code: string }).code).toBe('forbidden')
      }
      expect((await send(method, path, undefined, body)).status, `${method} ${path}`).toBe(401)
    }
    // Nothing changed: the feedback is still pending, the gap open.
    const feedback = (await (await send('GET', '/v1/analytics/demo/feedback', t.keys.admin)).json()) as {
      feedback: Array<{ status: string }>
    }
    expect(feedback.feedback[0]!.status).toBe('pending')
    expect(((await (await send('GET', `/v1/analytics/demo/gaps/${gapId}`, t.keys.admin)).json()) as { status: string }).status).toBe('open')
  })

  test('another organization’s project and data stay out of reach of this one’s admin key', async () => {
    expect((await send('GET', '/v1/analytics/other/assistant', t.keys.admin)).status).toBe(403)
    expect((await send('GET', '/v1/analytics/nope/assistant', t.keys.admin)).status).toBe(404)
    // The other organization sees none of this project's rows through its own project.
    const theirs = (await (await send('GET', '/v1/analytics/other/assistant', t.keys.otherAdmin)).json()) as { conversations: unknown[] }
    expect(theirs.conversations).toEqual([])
    expect((await send('GET', `/v1/analytics/other/assistant/threads/${threadId}`, t.keys.otherAdmin)).status).toBe(404)
    expect((await send('PATCH', `/v1/analytics/other/feedback/${feedbackId}`, t.keys.otherAdmin, { status: 'resolved' })).status).toBe(404)
    expect((await send('GET', `/v1/analytics/other/gaps/${gapId}`, t.keys.otherAdmin)).status).toBe(404)
  })

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['GET', '/v1/analytics/demo/assistant?dateFrom=yesterday', undefined, /^dateFrom: must be an ISO 8601 date/],
      ['GET', '/v1/analytics/demo/assistant?dateFrom=2026-03-05&dateTo=2026-03-01', undefined, /^dateFrom: must be before dateTo$/],
      ['GET', '/v1/analytics/demo/assistant?limit=0', undefined, /^limit: must be at least 1$/],
      ['GET', '/v1/analytics/demo/assistant?limit=1000', undefined, /^limit: must be at most 100$/],
      ['GET', '/v1/analytics/demo/assistant?format=xml', undefined, /^format: must be one of "json", "csv", "ndjson"$/],
      ['GET', '/v1/analytics/demo/feedback?status=open', undefined, /^status: must be one of/],
      ['GET', '/v1/analytics/demo/feedback/by-page?source=email', undefined, /^source: must be one of/],
      ['GET', '/v1/analytics/demo/gaps?status=closed', undefined, /^status: must be one of/],
      ['PATCH', `/v1/analytics/demo/feedback/${feedbackId}`, {}, /^status: must be one of "pending"/],
      ['POST', `/v1/analytics/demo/gaps/${gapId}/fix`, { text: '' }, /^text: must not be empty$/],
      ['POST', `/v1/analytics/demo/gaps/${gapId}/fix`, { page: 'x'.repeat(501), text: 'x' }, /^page: must be at most 500 characters$/],
    ]
    for (const [method, path, body, message] of cases) {
      const response = await send(method, path, t.keys.admin, body)
      expect(response.status, `${method} ${path}`).toBe(400)
      expect(((await response.json()) as { error: string }).error, path).toMatch(message)
    }
  })

  test('a summary has at most 180 buckets: a range of more than 180 years is a 400 naming dateFrom and where it may start', async () => {
    const summary = (query: string) => send('GET', `/v1/analytics/demo/assistant/summary?${query}`, t.keys.admin)
    const refused: Array<[string, string, string]> = [
      ['dateFrom=0001-01-01&dateTo=9999-12-31', '9999', '9820-01-01'],
      ['dateFrom=1000-01-01&dateTo=2026-06-30T12:00:00Z', '2026', '1847-01-01'],
    ]
    for (const [query, lastYear, earliest] of refused) {
      const response = await summary(query)
      expect(response.status, query).toBe(400)
      expect(await response.json()).toMatchObject({
        error: `dateFrom: a summary counts at most 180 years (180 buckets of a year); for a range ending in ${lastYear}, start on ${earliest} or later`,
      })
    }
    for (const query of ['dateFrom=9820-01-01&dateTo=9999-12-31', 'dateFrom=1847-01-01&dateTo=2026-12-31']) {
      const response = await summary(query)
      expect(response.status, query).toBe(200)
      expect(await response.json(), query).toMatchObject({ bucket: 'year', buckets: expect.any(Array) })
    }
    const widest = (await (await summary('dateFrom=9820-01-01&dateTo=9999-12-31')).json()) as { buckets: unknown[] }
    expect(widest.buckets).toHaveLength(180)
  })

  test('dates outside the years 1 to 9999 are a 400 naming the field on every endpoint with a range, exports included', async () => {
    const ranged = [
      '/v1/analytics/demo/assistant',
      '/v1/analytics/demo/assistant?format=csv',
      '/v1/analytics/demo/assistant?format=ndjson',
      '/v1/analytics/demo/assistant/caller-stats',
      '/v1/analytics/demo/feedback',
      '/v1/analytics/demo/feedback/by-page',
      '/v1/analytics/demo/searches',
      '/v1/analytics/demo/searches?format=csv',
      '/v1/analytics/demo/searches?format=ndjson',
      '/v1/analytics/demo/gaps',
      `/v1/analytics/demo/gaps/${gapId}`,
    ]
    const dates: Array<[string, RegExp]> = [
      ['dateFrom=0000-01-01', /^dateFrom: /],
      ['dateFrom=0001-01-01T00:00:00%2B01:00', /^dateFrom: /],
    ]
    for (const path of ranged) {
      for (const [query, message] of dates) {
        const url = `${path}${path.includes('?') ? '&' : '?'}${query}`
        const response = await send('GET', url, t.keys.admin)
        expect(response.status, url).toBe(400)
        expect(((await response.json()) as { error: string }).error, url).toMatch(message)
      }
      // Until 9999-12-31 (its whole day reaches year 10000) means until the end.
      for (const query of ['dateTo=9999-12-31', 'dateTo=9999-12-31T23:30:00-01:00']) {
        const url = `${path}${path.includes('?') ? '&' : '?'}${query}`
        const response = await send('GET', url, t.keys.admin)
        expect(response.status, url).toBe(200)
        await response.text()
      }
    }
    expect((await send('GET', '/v1/analytics/demo/assistant?dateFrom=0001-01-01&dateTo=9999-12-30', t.keys.admin)).status).toBe(200)
  })

  test('a cursor no list returned is a 400 naming it on every paged list, never the first page again', async () => {
    const forge = forgeCursor
    const dated = DATE_PAGED_LISTS
    const datedCursors = [
      'garbage',
      '***',
      '%FF%FE',
      '%00%01garbage',
      forge('x|y'),
      forge('not-a-date|id'),
      forge('0000-01-01T00:00:00Z|abc'),
      forge('-000001-01-01T00:00:00.000Z|abc'),
      forge('+275760-09-13T00:00:00.000Z|abc'),
    ]
    const ranked = RANK_PAGED_LISTS
    const rankCursors = ['garbage', '***', '%FF%FE', forge('-5|x'), forge('1e400|x'), forge('not a count|x'), 'bm90IGEgY3Vyc29y']
    const lists: Array<[string, string[]]> = [
      ...dated.map((path): [string, string[]] => [path, datedCursors]),
      ...ranked.map((path): [string, string[]] => [path, rankCursors]),
    ]
    for (const [path, cursors] of lists) {
      expect((await send('GET', path, t.keys.admin)).status, path).toBe(200)
      for (const cursor of cursors) {
        const response = await send('GET', `${path}?cursor=${cursor}`, t.keys.admin)
        expect(response.status, `${path}?cursor=${cursor}`).toBe(400)
        expect(((await response.json()) as { error: string }).error).toMatch(/^cursor: invalid/)
      }
    }
  })
})

describe('the widget’s events endpoint', () => {
  const events = (body: unknown, key = t.keys.assistant, headers: Record<string, string> = {}) =>
    t.app.request('/discovery/v1/events/demo', {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    })

  test('the assistant key of the domain, CORS of the project, a small bounded body', async () => {
    const one = { events: [{ type: 'search', query: 'flags', resultCount: 3 }] }
    expect((await events(one)).status).toBe(204)
    expect((await events(one, t.keys.admin)).status).toBe(403)
    expect((await events(one, t.keys.otherAssistant)).status).toBe(403)
    expect((await events(one, t.keys.assistant, { origin: 'https://evil.example' })).status).toBe(403)
    const allowed = await events(one, t.keys.assistant, { origin: 'https://docs.example.com' })
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
    const preflight = await t.app.request('/discovery/v1/events/demo', {
      method: 'OPTIONS',
      headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)

    const bad: Array<[unknown, RegExp]> = [
      [{ events: [] }, /^events: must have at least 1 item$/],
      [{ events: Array.from({ length: 21 }, () => ({ type: 'search', query: 'x' })) }, /^events: must have at most 20 items$/],
      [{ events: [{ type: 'page_view' }] }, /^events\.0\.type: must be one of "search", "search_result_click", "source_click"$/],
      [{ events: [{ type: 'search', query: 'x'.repeat(501) }] }, /^events\.0\.query: must be at most 500 characters$/],
      [{ events: [{ type: 'search_result_click', path: '/x', position: -1 }] }, /^events\.0\.position: must be at least 0$/],
      // Numbers past the store's 32-bit columns and control characters in ids would fail the store's write of the batch.
      [{ events: [{ type: 'source_click', path: 'x', position: 2147483648 }] }, /^events\.0\.position: must be at most 2147483647$/],
      [
        {
          events: [
            { type: 'search', query: 'x' },
            { type: 'search', query: 'y', resultCount: 2147483648 },
          ],
        },
        /^events\.1\.resultCount: must be at most 2147483647$/,
      ],
      [
        { events: [{ type: 'source_click', path: '/x', threadId: 'thr_\u0000' }] },
        /^events\.0\.threadId: must not contain control characters$/,
      ],
      [
        { events: [{ type: 'source_click', path: '/x', messageId: 'msg_\u0007' }] },
        /^events\.0\.messageId: must not contain control characters$/,
      ],
    ]
    for (const [body, message] of bad) {
      const response = await events(body)
      expect(response.status).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(message)
    }
    const edge = { type: 'source_click', path: '/x', position: 2147483647, threadId: 'thr_é🦊', messageId: 'msg_1' }
    expect((await events({ events: [edge] })).status).toBe(204)
    const big = JSON.stringify({ events: [{ type: 'search', query: 'x'.repeat(400), path: 'y'.repeat(MAX_EVENTS_BODY_BYTES) }] })
    expect((await events(big)).status).toBe(413)
  })

  test('a click names a page of the docs site: a URL, a scheme or a formula is a 400 naming the event, and never a top clicked page', async () => {
    const click = (path: string, query = 'phishing') => ({ type: 'search_result_click', query, path, position: 1 })
    const message =
      /^events\.1\.path: must be a path on the docs site, as \/quickstart or sdks\/javascript \(not a URL, a scheme or a formula\)$/
    for (const path of [
      'https://evil.example/phish',
      '//evil.example/phish',
      '\\\\evil.example\\phish',
      'javascript:alert(1)',
      '=HYPERLINK("https://evil.example/phish","Docs")',
      '/<script>alert(1)</script>',
    ]) {
      // The whole body is refused, as for any other field: the search before the click is not counted either.
      const response = await events({ events: [{ type: 'search', query: 'phishing', resultCount: 1 }, click(path)] })
      expect(response.status, path).toBe(400)
      expect(((await response.json()) as { error: string }).error, path).toMatch(message)
      const source = await events({
        events: [
          { type: 'search', query: 'x' },
          { type: 'source_click', path, position: 1 },
        ],
      })
      expect(source.status, path).toBe(400)
    }
    // What the widget sends: a search result's page path, a source link's URL path; a place on a page is the page.
    const term = 'rollouts 2'
    const sent = [click('guides/rollouts', term), click('guides/rollouts#percent', term), click('/guides/flags?tab=go', term)]
    expect((await events({ events: [{ type: 'search', query: term, resultCount: 3 }, ...sent] })).status).toBe(204)
    expect((await events({ events: [{ type: 'source_click', path: '/fr/gu%C3%ADa', position: 1 }] })).status).toBe(204)
    const searches = (await (await send('GET', '/v1/analytics/demo/searches?limit=100', t.keys.admin)).json()) as {
      searches: Array<{ searchQuery: string; topClickedPage: string | null; clicks: number }>
    }
    expect(searches.searches.find((entry) => entry.searchQuery === term)).toMatchObject({ topClickedPage: 'guides/rollouts', clicks: 3 })
    expect(searches.searches.find((entry) => entry.searchQuery === 'phishing')).toBeUndefined()
    expect(JSON.stringify(searches)).not.toMatch(/evil|javascript:|HYPERLINK|<script/)
  })
})
