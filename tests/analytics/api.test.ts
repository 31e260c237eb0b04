import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  CallerStats,
  Conversation,
  ConversationList,
  FeedbackByPage,
  FeedbackItem,
  FeedbackList,
  GapList,
  SearchTermList,
} from '../../shared/analytics.ts'
import type { TurnRecord } from '../../server/store/types.ts'
import { type Asked, ask, DATE_PAGED_LISTS, type Embedded, embeddedDocent, forgeCursor, RANK_PAGED_LISTS } from './support.ts'

// Done when (1): on the embedded default with no API key, readers' questions (some answered, some not, one rated
// down, from a page) show up in every analytics endpoint with the right fields; caller-stats tells widget from API
// calls; searches counts terms, zero-result terms and CTR from reported clicks; CSV/NDJSON exports stream.

let t: Embedded
const site = 'https://docs.example.com'
let installed: Asked
let ruby: Asked
let segment: Asked
let terraformThread: string

beforeAll(async () => {
  t = await embeddedDocent()
  // A reader on the SDK overview page, in the widget: one answered question, one the docs do not cover.
  installed = await ask(t.url, t.assistant, 'How do I install the JavaScript SDK?', { origin: site, currentPath: '/sdks/overview' })
  ruby = await ask(t.url, t.assistant, 'Is there a Ruby SDK?', { origin: site, currentPath: '/sdks/overview' })
  // A server calling the API: answered, then rated down.
  segment = await ask(t.url, t.assistant, 'What is a segment?')
  const rated = await fetch(`${t.url}/discovery/v1/assistant/demo/feedback`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json' },
    body: JSON.stringify({ threadId: segment.threadId, messageId: segment.message.id, rating: 'down', comment: 'too short' }),
  })
  expect(rated.status).toBe(204)
  // An AI SDK 4 client on v1: the thread id and the resolution come in the `8:` annotation.
  const v1 = await fetch(`${t.url}/discovery/v1/assistant/demo/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'q1', role: 'user', content: 'How do I manage flags with Terraform?' }] }),
  })
  // The first annotation (before the text) carries the thread; the last, after it, the resolution too.
  const annotation = (await v1.text()).split('\n').findLast((line) => line.startsWith('8:'))!
  const [note] = JSON.parse(annotation.slice(2)) as Array<{ threadId: string; resolution: string }>
  expect(note!.resolution).toBe('unanswered')
  terraformThread = note!.threadId
  // An AI tool over MCP searches the docs.
  const mcp = await fetch(`${t.url}/mcp/demo`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_docs', arguments: { query: 'rollout percentage' } },
    }),
  })
  expect(mcp.status).toBe(200)
  await mcp.text()
  // Searches: the endpoint (recorded), a keystroke of search-as-you-type (not recorded), one that finds nothing,
  // and the widget's reports of a settled search and a click on a result.
  const search = (body: unknown) =>
    fetch(`${t.url}/discovery/v1/search/demo`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json', origin: site },
      body: JSON.stringify(body),
    }).then((response) => response.json())
  expect((await search({ query: 'webhooks' })) as unknown[]).not.toHaveLength(0)
  await search({ query: 'Webhooks ' })
  await search({ query: 'webho', analytics: false })
  expect(await search({ query: 'xyzzy plugh' })).toEqual([])
  const events = await fetch(`${t.url}/discovery/v1/events/demo`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json', origin: site },
    body: JSON.stringify({
      events: [
        { type: 'search', query: 'webhooks', resultCount: 5 },
        { type: 'search_result_click', query: 'webhooks', path: '/guides/webhooks', position: 0 },
        { type: 'source_click', path: '/sdks/javascript', threadId: installed.threadId, messageId: installed.message.id },
      ],
    }),
  })
  expect(events.status).toBe(204)
  expect(events.headers.get('access-control-allow-origin')).toBe('*')
}, 120_000)
afterAll(() => t?.stop())

describe('the answer stream says whether the docs answered', () => {
  test('v2 finish metadata carries resolution beside threadId', () => {
    expect(installed.resolution).toBe('answered')
    expect(ruby.resolution).toBe('unanswered')
    expect(ruby.text).toMatch(/^The docs do not cover this question\./)
    expect(segment.resolution).toBe('answered')
    expect(installed.threadId).toMatch(/^thr_/)
  })
})

describe('conversations', () => {
  test('one row per answer, newest first, with the hosted fields and Docent’s', async () => {
    const list = ConversationList.parse(await t.get('/v1/analytics/demo/assistant'))
    expect(list.conversations.map((c) => c.query)).toEqual([
      'How do I manage flags with Terraform?',
      'What is a segment?',
      'Is there a Ruby SDK?',
      'How do I install the JavaScript SDK?',
    ])
    const [terraform, segmentRow, rubyRow, installRow] = list.conversations as [Conversation, Conversation, Conversation, Conversation]
    expect(installRow).toMatchObject({
      id: installed.message.id,
      threadId: installed.threadId,
      response: installed.text,
      responseType: 'answer',
      resolutionStatus: 'answered',
      queryCategory: 'SDKs',
      pageUrl: 'http://docs.test/sdks/overview',
      caller: 'web',
      model: 'offline-answer',
      feedback: null,
    })
    expect(installRow.sources.map((s) => s.url)).toEqual(installed.sources)
    expect(installRow.sources[0]!.title).toBeTruthy()
    expect(installRow.firstTokenMs).not.toBeNull()
    expect(installRow.firstTokenMs!).toBeLessThanOrEqual(installRow.totalMs)
    expect(Date.parse(installRow.timestamp)).toBeLessThan(Date.parse(rubyRow.timestamp))
    expect(rubyRow).toMatchObject({ resolutionStatus: 'unanswered', pageUrl: 'http://docs.test/sdks/overview', caller: 'web' })
    expect(segmentRow).toMatchObject({
      resolutionStatus: 'answered',
      caller: 'api',
      pageUrl: null,
      feedback: { rating: 'down', comment: 'too short' },
    })
    expect(terraform).toMatchObject({ resolutionStatus: 'unanswered', caller: 'api', threadId: terraformThread })
    expect(list).toMatchObject({ nextCursor: null, hasMore: false })

    const first = ConversationList.parse(await t.get('/v1/analytics/demo/assistant?limit=3'))
    expect(first.hasMore).toBe(true)
    const rest = ConversationList.parse(await t.get(`/v1/analytics/demo/assistant?limit=3&cursor=${first.nextCursor}`))
    expect(rest.conversations.map((c) => c.id)).toEqual([installRow.id])
    expect(ConversationList.parse(await t.get('/v1/analytics/demo/assistant?dateFrom=2020-01-01&dateTo=2020-01-31')).conversations).toEqual(
      [],
    )
  })

  test('a thread, message by message', async () => {
    const thread = (await t.get(`/v1/analytics/demo/assistant/threads/${installed.threadId}`)) as {
      threadId: string
      messages: Array<{ role: string; content: string; id: string }>
    }
    expect(thread.threadId).toBe(installed.threadId)
    expect(thread.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'How do I install the JavaScript SDK?'],
      ['assistant', installed.text],
    ])
    expect(thread.messages[1]!.id).toBe(installed.message.id)
  })

  test('caller-stats tells docs sites from API calls and AI tools', async () => {
    expect(CallerStats.parse(await t.get('/v1/analytics/demo/assistant/caller-stats'))).toEqual({ web: 2, api: 2, other: 1, total: 5 })
  })
})

describe('feedback', () => {
  test('the rating down is listed with its page and moves through review', async () => {
    const list = FeedbackList.parse(await t.get('/v1/analytics/demo/feedback'))
    expect(list.feedback).toHaveLength(1)
    const item = list.feedback[0]!
    const bestSource = new URL(segment.sources[0]!).pathname
    expect(item).toMatchObject({
      path: bestSource,
      comment: 'too short',
      source: 'thumbs_only',
      status: 'pending',
      helpful: false,
      contact: null,
      threadId: segment.threadId,
      messageId: segment.message.id,
    })
    const patch = (id: string, body: unknown) =>
      fetch(`${t.url}/v1/analytics/demo/feedback/${id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${t.admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const moved = await patch(item.id, { status: 'in_progress' })
    expect(moved.status).toBe(200)
    expect(FeedbackItem.parse(await moved.json())).toMatchObject({ id: item.id, status: 'in_progress' })
    expect(FeedbackList.parse(await t.get('/v1/analytics/demo/feedback?status=pending')).feedback).toEqual([])
    expect(FeedbackList.parse(await t.get('/v1/analytics/demo/feedback?status=in_progress')).feedback.map((f) => f.id)).toEqual([item.id])
    expect(FeedbackList.parse(await t.get('/v1/analytics/demo/feedback?source=code_snippet')).feedback).toEqual([])
    const bad = await patch(item.id, { status: 'done' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/^status: must be one of/)
    expect((await patch('fb_unknown', { status: 'resolved' })).status).toBe(404)

    expect(FeedbackByPage.parse(await t.get('/v1/analytics/demo/feedback/by-page'))).toEqual({
      feedback: [{ path: bestSource, thumbsUp: 0, thumbsDown: 1, code: 0, total: 1 }],
      hasMore: false,
    })
  })
})

describe('searches', () => {
  test('terms by hits, zero-result terms, CTR and the top clicked page from the widget’s reports', async () => {
    const list = SearchTermList.parse(await t.get('/v1/analytics/demo/searches'))
    // The endpoint twice (case and spaces aside), the widget's settled search once, the empty search, MCP's.
    expect(list.totalSearches).toBe(5)
    expect(list.noResultSearches).toBe(1)
    expect(list.searches.map((s) => s.searchQuery)).toEqual(['webhooks', 'rollout percentage', 'xyzzy plugh'])
    expect(list.searches[0]).toMatchObject({ hits: 3, clicks: 1, ctr: 0.333, topClickedPage: '/guides/webhooks', noResults: 0 })
    expect(list.searches[2]).toMatchObject({ hits: 1, noResults: 1, ctr: 0, topClickedPage: null })
    const page = SearchTermList.parse(await t.get('/v1/analytics/demo/searches?limit=1'))
    const next = SearchTermList.parse(await t.get(`/v1/analytics/demo/searches?limit=2&cursor=${page.nextCursor}`))
    expect(next.searches.map((s) => s.searchQuery)).toEqual(['rollout percentage', 'xyzzy plugh'])
    expect(next.nextCursor).toBeNull()
  })
})

describe('gaps from these questions', () => {
  test('the unanswered questions, the answer rated down and the search that found nothing are gaps', async () => {
    const { gaps } = GapList.parse(await t.get('/v1/analytics/demo/gaps'))
    const titles = gaps.map((gap) => gap.title).sort()
    expect(titles).toEqual(['How do I manage flags with Terraform?', 'Is there a Ruby SDK?', 'What is a segment?', 'xyzzy plugh'])
    const rubyGap = gaps.find((gap) => gap.title === 'Is there a Ruby SDK?')!
    expect(rubyGap).toMatchObject({
      status: 'open',
      count: 1,
      pages: ['http://docs.test/sdks/overview'],
      jobId: null,
      prLink: null,
      reason: null,
    })
    expect(rubyGap.questions).toEqual([{ query: 'Is there a Ruby SDK?', count: 1, lastAskedAt: rubyGap.lastSeenAt }])
    expect(rubyGap.closest.length).toBeGreaterThan(0)
  })
})

describe('exports stream every row of the range', () => {
  test('CSV and NDJSON of conversations, past one store page, and of searches', async () => {
    // A year of data in small: more rows than one page the export reads at a time.
    const earlier = (i: number): TurnRecord => ({
      id: `msg_bulk_${String(i).padStart(4, '0')}`,
      projectId: 'demo',
      threadId: 'thr_bulk',
      askedAt: new Date(Date.now() - 86_400_000 * 2 - i * 1000),
      query: i === 0 ? '=cmd|" /C calc"!A0, "quoted"\nline two' : `question ${i}`,
      searchQuery: `question ${i}`,
      response: `answer ${i} [1]`,
      sources: [{ title: 'Flags', path: 'concepts/flags', url: 'http://docs.test/concepts/flags' }],
      resolution: 'answered',
      category: 'Core concepts',
      pagePath: null,
      pageUrl: null,
      caller: 'api',
      fp: 'anonymous',
      model: 'offline-answer',
      firstTokenMs: 1,
      totalMs: 2,
    })
    await t.docent.context.store.recordAnalytics({ turns: Array.from({ length: 1200 }, (_, i) => earlier(i)) })

    const csv = await fetch(`${t.url}/v1/analytics/demo/assistant?format=csv`, { headers: { authorization: `Bearer ${t.admin}` } })
    expect(csv.status).toBe(200)
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="conversations-demo-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv"$/,
    )
    expect(csv.headers.get('content-length')).toBeNull()
    const reader = csv.body!.getReader()
    let text = ''
    let chunks = 0
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      chunks++
      text += new TextDecoder().decode(value)
    }
    expect(chunks).toBeGreaterThan(2)
    const lines = text.split('\r\n')
    expect(lines[0]).toBe(
      'id,timestamp,query,response,sources,resolutionStatus,queryCategory,pageUrl,threadId,caller,model,firstTokenMs,totalMs,rating,comment',
    )
    expect(text).toContain(',"\'=cmd|"" /C calc""!A0, ""quoted""\nline two",')
    expect(text.match(/\r\nmsg_bulk_/g)).toHaveLength(1200)
    expect(text).toContain(`${segment.message.id},`)

    const ndjson = await fetch(`${t.url}/v1/analytics/demo/assistant?format=ndjson&limit=1`, {
      headers: { authorization: `Bearer ${t.admin}` },
    })
    expect(ndjson.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const rows = (await ndjson.text())
      .trimEnd()
      .split('\n')
      .map((line) => Conversation.parse(JSON.parse(line)))
    expect(rows).toHaveLength(1204)
    expect(rows[0]!.query).toBe('How do I manage flags with Terraform?')
    expect(rows.at(-1)!.id).toBe('msg_bulk_1199')

    const searches = await fetch(`${t.url}/v1/analytics/demo/searches?format=csv`, { headers: { authorization: `Bearer ${t.admin}` } })
    expect((await searches.text()).split('\r\n')).toEqual([
      'searchQuery,hits,ctr,topClickedPage,lastSearchedAt,noResults,clicks',
      expect.stringMatching(/^webhooks,3,0\.333,\/guides\/webhooks,\d{4}-[^,]+Z,0,1$/),
      expect.stringMatching(/^rollout percentage,1,0,,/),
      expect.stringMatching(/^xyzzy plugh,1,0,,.+,1,0$/),
      '',
    ])
  })
})

describe('bad input on the embedded store is a 400 naming the field, never a database error', () => {
  const admin = (path: string) => fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.admin}` } })
  const refused = async (path: string, message: RegExp) => {
    const response = await admin(path)
    const text = await response.text()
    expect(response.status, `${path} → ${text.slice(0, 200)}`).toBe(400)
    expect((JSON.parse(text) as { error: string }).error, path).toMatch(message)
  }

  test('dates before year 1 are refused, on the lists and before any export byte; an end past 9999 stops there', async () => {
    for (const path of [
      '/v1/analytics/demo/assistant',
      '/v1/analytics/demo/assistant?format=csv',
      '/v1/analytics/demo/assistant/caller-stats',
      '/v1/analytics/demo/feedback',
      '/v1/analytics/demo/feedback/by-page',
      '/v1/analytics/demo/searches',
      '/v1/analytics/demo/searches?format=ndjson',
      '/v1/analytics/demo/gaps',
    ]) {
      const and = path.includes('?') ? '&' : '?'
      await refused(`${path}${and}dateFrom=0000-01-01`, /^dateFrom: /)
      await refused(`${path}${and}dateFrom=0001-01-01T00:00:00%2B01:00`, /^dateFrom: /)
    }
    // The widest range the store reads is fine, and "until 9999-12-31" (its whole day reaches year 10000) stops there.
    for (const dateTo of ['9999-12-30', '9999-12-31', '9999-12-31T23:30:00-01:00']) {
      const all = ConversationList.parse(await t.get(`/v1/analytics/demo/assistant?dateFrom=0001-01-01&dateTo=${dateTo}&limit=100`))
      expect(all.conversations.length, dateTo).toBeGreaterThan(0)
    }
    const csv = await admin('/v1/analytics/demo/assistant?format=csv&dateFrom=2000-01-01&dateTo=9999-12-31')
    expect(csv.status).toBe(200)
    expect((await csv.text()).split('\r\n').length).toBeGreaterThan(2)
  })

  test('forged cursors on every paged list; real ones walk the same list one item at a time', async () => {
    const forge = forgeCursor
    const dated = DATE_PAGED_LISTS
    for (const path of dated) {
      for (const cursor of ['0000-01-01T00:00:00Z|abc', '-000001-01-01T00:00:00.000Z|abc', '+275760-09-13T00:00:00.000Z|abc', 'x|y'])
        await refused(`${path}?cursor=${forge(cursor)}`, /^cursor: invalid/)
      await refused(`${path}?cursor=garbage`, /^cursor: invalid/)
    }
    for (const path of RANK_PAGED_LISTS) {
      for (const cursor of ['-5|x', '1e400|x', '3000000000|x']) await refused(`${path}?cursor=${forge(cursor)}`, /^cursor: invalid/)
    }

    const items = (body: Record<string, unknown>) => {
      const list = Object.values(body).find(Array.isArray) as unknown[]
      return list.map((item) => JSON.stringify(item))
    }
    // Today's conversations: the bulk of the export test is days old.
    const today = `/v1/analytics/demo/assistant?dateFrom=${new Date(Date.now() - 86_400_000).toISOString()}`
    for (const path of ['/v2/assistant/demo/threads', today, '/v1/analytics/demo/searches']) {
      const and = path.includes('?') ? '&' : '?'
      const whole = items(await t.get<Record<string, unknown>>(`${path}${and}limit=100`))
      const walked: string[] = []
      let cursor: string | null = null
      do {
        const page: Record<string, unknown> = await t.get(`${path}${and}limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
        walked.push(...items(page))
        cursor = page.nextCursor as string | null
      } while (cursor)
      expect(walked.length, path).toBeGreaterThan(1)
      expect(walked, path).toEqual(whole)
    }
  })

  test('widget events the store cannot hold are refused whole, naming the event and field', async () => {
    const send = (events: unknown[]) =>
      fetch(`${t.url}/discovery/v1/events/demo`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.assistant}`, 'content-type': 'application/json' },
        body: JSON.stringify({ events }),
      })
    const cases: Array<[unknown[], RegExp]> = [
      [[{ type: 'source_click', path: 'x', position: 2147483648 }], /^events\.0\.position: /],
      [
        [
          { type: 'search', query: 'ok' },
          { type: 'search', query: 'flags', resultCount: 2 ** 40 },
        ],
        /^events\.1\.resultCount: /,
      ],
      [[{ type: 'source_click', path: '/x', threadId: 'thr_\u0000' }], /^events\.0\.threadId: /],
      [[{ type: 'source_click', path: '/x', messageId: 'msg\u001b[31m' }], /^events\.0\.messageId: /],
    ]
    for (const [events, message] of cases) {
      const response = await send(events)
      expect(response.status, JSON.stringify(events)).toBe(400)
      expect(((await response.json()) as { error: string }).error).toMatch(message)
    }
  })
})
