import { expect } from 'vitest'
import type { GapRecord, GapSignalRecord, SearchRecord, TurnRecord } from './analytics-types.ts'
import { message, type SuiteApi, sampleThread, uid } from './conformance-fixtures.ts'
import { encodeRankCursor } from './cursor.ts'
import type { Store } from './types.ts'

const at = (day: number, minute = 0) => new Date(Date.UTC(2026, 2, day, 12, minute))
const range = (fromDay: number, toDay: number) => ({ from: at(fromDay, -720), to: at(toDay, -720) })

export const sampleTurn = (overrides: Partial<TurnRecord> = {}): TurnRecord => ({
  id: uid('msg'),
  projectId: uid('project'),
  threadId: uid('thread'),
  askedAt: at(1),
  query: 'How do I rotate an API token?',
  searchQuery: 'How do I rotate an API token?',
  response: 'From the docs: rotate it in Settings [1]',
  sources: [{ title: 'API tokens', path: 'account/api-tokens', url: 'https://docs.test/account/api-tokens#rotate' }],
  resolution: 'answered',
  category: 'Account',
  pagePath: '/quickstart',
  pageUrl: 'https://docs.test/quickstart',
  caller: 'web',
  fp: 'anonymous',
  model: 'offline-answer',
  firstTokenMs: 12,
  totalMs: 40,
  ...overrides,
})

const sampleSearch = (overrides: Partial<SearchRecord> = {}): SearchRecord => ({
  id: uid('search'),
  projectId: uid('project'),
  at: at(1),
  query: 'flags',
  resultCount: 3,
  topScore: 1,
  caller: 'web',
  origin: 'search',
  ...overrides,
})

export const sampleSignal = (overrides: Partial<GapSignalRecord> = {}): GapSignalRecord => ({
  id: uid('signal'),
  projectId: uid('project'),
  at: at(1),
  kind: 'unanswered',
  query: 'How do I export flags to CSV?',
  terms: ['export', 'flag', 'csv'],
  sections: [{ title: 'Flags', path: 'concepts/flags', url: '/concepts/flags' }],
  pageUrl: null,
  gapId: null,
  ...overrides,
})

export const sampleGap = (overrides: Partial<GapRecord> = {}): GapRecord => ({
  id: uid('gap'),
  projectId: uid('project'),
  title: 'How do I export flags to CSV?',
  status: 'open',
  reason: null,
  jobId: null,
  terms: { export: 1, flag: 1, csv: 1 },
  sections: [{ title: 'Flags', path: 'concepts/flags', url: '/concepts/flags', count: 1 }],
  memberCount: 1,
  merge: null,
  verifiedAt: null,
  firstSeenAt: at(1),
  lastSeenAt: at(1),
  createdAt: at(1),
  updatedAt: at(1),
  ...overrides,
})

/** The analytics part of the conformance suite (registered inside `describeStoreConformance`). */
export function describeAnalyticsConformance(open: () => Promise<Store>, test: SuiteApi['test']) {
  test('analytics: turns by date range, newest first, paged, with their feedback; callers counted', async () => {
    const store = await open()
    const projectId = uid('project')
    const thread = sampleThread({ projectId })
    await store.createThread(thread)
    const turns = [1, 2, 3, 4].map((day) =>
      sampleTurn({ projectId, threadId: thread.id, askedAt: at(day), caller: day === 4 ? 'api' : 'web' }),
    )
    const elsewhere = sampleTurn({ askedAt: at(2) })
    await store.recordAnalytics({
      turns: [...turns, elsewhere],
      searches: [sampleSearch({ projectId, caller: 'other', origin: 'mcp', at: at(2) }), sampleSearch({ projectId, at: at(2) })],
    })
    // The answer message exists in the thread, so it can be rated.
    await store.appendMessages(thread.id, [{ ...message(thread.id, 'assistant', 'x', at(2)), id: turns[1]!.id }], at(2))
    expect(
      await store.putFeedback({ threadId: thread.id, messageId: turns[1]!.id, rating: 'down', comment: 'wrong', createdAt: at(2) }),
    ).toBe(true)

    expect(await store.getTurn(projectId, turns[0]!.id)).toEqual(turns[0])
    expect(await store.getTurn('other', turns[0]!.id)).toBeNull()
    const first = await store.listTurns(projectId, range(2, 5), { limit: 2 })
    expect(first.items.map((turn) => turn.id)).toEqual([turns[3]!.id, turns[2]!.id])
    const second = await store.listTurns(projectId, range(2, 5), { limit: 2, cursor: first.nextCursor! })
    expect(second.items.map((turn) => turn.id)).toEqual([turns[1]!.id])
    expect(second.nextCursor).toBeNull()
    expect(second.items[0]).toEqual({ ...turns[1], feedback: { rating: 'down', comment: 'wrong' } })
    expect(first.items[0]!.feedback).toBeNull()
    expect(await store.countCallers(projectId, range(1, 5))).toEqual({ web: 3, api: 1, other: 1 })
    expect(await store.countCallers(projectId, range(3, 4))).toEqual({ web: 1, api: 0, other: 0 })
  })

  test('analytics: a summary counts every turn of the range by day, week, month and year (UTC), by category, and its ratings', async () => {
    const store = await open()
    const projectId = uid('project')
    const thread = sampleThread({ projectId })
    await store.createThread(thread)
    // 2026-03-01 is a Sunday: its week began on Monday 2026-02-23; the 2nd starts the next week.
    const asked: Array<[number, TurnRecord['resolution'], string | null]> = [
      [1, 'answered', 'Account'],
      [2, 'answered', 'Account'],
      [2, 'unanswered', 'API'],
      [2, 'answered', null],
      [3, 'unanswered', 'Guides'],
      [9, 'answered', 'Account'],
      [9, 'unanswered', 'Guides'],
      [9, 'unanswered', 'API'],
      [9, 'answered', null],
    ]
    const turns = asked.map(([day, resolution, category], i) =>
      sampleTurn({ projectId, threadId: thread.id, askedAt: at(day, i), resolution, category }),
    )
    const outside = [
      sampleTurn({ projectId, askedAt: at(10) }),
      sampleTurn({ projectId, askedAt: at(1, -721) }),
      sampleTurn({ askedAt: at(2) }),
    ]
    await store.recordAnalytics({ turns: [...turns, ...outside] })
    await store.appendMessages(
      thread.id,
      turns.map((turn) => ({ ...message(thread.id, 'assistant', 'a', turn.askedAt), id: turn.id })),
      at(9),
    )
    // Ratings count when they were given: two in the range, one after it.
    await store.putFeedback({ threadId: thread.id, messageId: turns[0]!.id, rating: 'up', createdAt: at(2) })
    await store.putFeedback({ threadId: thread.id, messageId: turns[2]!.id, rating: 'down', createdAt: at(3) })
    await store.putFeedback({ threadId: thread.id, messageId: turns[5]!.id, rating: 'up', createdAt: at(12) })

    const days = await store.summarizeTurns(projectId, range(1, 10), 'day')
    const day = (n: number) => new Date(Date.UTC(2026, 2, n))
    expect(days.buckets).toEqual([
      { start: day(1), answered: 1, unanswered: 0 },
      { start: day(2), answered: 2, unanswered: 1 },
      { start: day(3), answered: 0, unanswered: 1 },
      { start: day(9), answered: 2, unanswered: 2 },
    ])
    // The most asked first; ties by name, no category after every name.
    expect(days.categories).toEqual([
      { name: 'Account', count: 3 },
      { name: 'API', count: 2 },
      { name: 'Guides', count: 2 },
      { name: null, count: 2 },
    ])
    expect(days.ratings).toEqual({ up: 1, down: 1 })
    expect((await store.summarizeTurns(projectId, range(1, 10), 'week')).buckets).toEqual([
      { start: new Date(Date.UTC(2026, 1, 23)), answered: 1, unanswered: 0 },
      { start: day(2), answered: 2, unanswered: 2 },
      { start: day(9), answered: 2, unanswered: 2 },
    ])
    const months = await store.summarizeTurns(projectId, { from: at(1, -721), to: at(11) }, 'month')
    expect(months.buckets).toEqual([
      { start: new Date(Date.UTC(2026, 1, 1)), answered: 1, unanswered: 0 },
      { start: day(1), answered: 6, unanswered: 4 },
    ])
    expect(months.ratings).toEqual({ up: 1, down: 1 })
    expect((await store.summarizeTurns(projectId, range(1, 20), 'year')).buckets).toEqual([
      { start: new Date(Date.UTC(2026, 0, 1)), answered: 6, unanswered: 4 },
    ])
    expect(await store.summarizeTurns(projectId, range(3, 9), 'day')).toEqual({
      buckets: [{ start: day(3), answered: 0, unanswered: 1 }],
      categories: [{ name: 'Guides', count: 1 }],
      ratings: { up: 0, down: 1 },
    })
    expect(await store.summarizeTurns(uid('project'), range(1, 10), 'day')).toEqual({
      buckets: [],
      categories: [],
      ratings: { up: 0, down: 0 },
    })

    // Year 1 (which Date.UTC would read as 1901), and a range of ten centuries counted by year.
    const early = new Date('0001-06-15T08:00:00Z')
    await store.recordAnalytics({ turns: [sampleTurn({ projectId, askedAt: early, resolution: 'unanswered' })] })
    const ancient = { from: new Date('0001-01-01T00:00:00Z'), to: new Date('1000-01-01T00:00:00Z') }
    expect((await store.summarizeTurns(projectId, ancient, 'week')).buckets).toEqual([
      { start: new Date('0001-06-11T00:00:00Z'), answered: 0, unanswered: 1 },
    ])
    expect((await store.summarizeTurns(projectId, ancient, 'month')).buckets[0]!.start).toEqual(new Date('0001-06-01T00:00:00Z'))
    expect((await store.summarizeTurns(projectId, ancient, 'year')).buckets[0]!.start).toEqual(new Date('0001-01-01T00:00:00Z'))
    // The widest summary the API asks for (bucketFor: 180 buckets of a year), at the stores' last years.
    const late = ['9820-01-01T00:00:00Z', '9999-12-31T23:59:59.998Z'].map((time) => sampleTurn({ projectId, askedAt: new Date(time) }))
    await store.recordAnalytics({ turns: late })
    const widest = { from: new Date('9820-01-01T00:00:00Z'), to: new Date('9999-12-31T23:59:59.999Z') }
    expect((await store.summarizeTurns(projectId, widest, 'year')).buckets).toEqual([
      { start: new Date('9820-01-01T00:00:00Z'), answered: 1, unanswered: 0 },
      { start: new Date('9999-01-01T00:00:00Z'), answered: 1, unanswered: 0 },
    ])
  })

  test('analytics: feedback has an id and a review status that survive a re-rating, a page, filters and per-page counts', async () => {
    const store = await open()
    const projectId = uid('project')
    const thread = sampleThread({ projectId })
    await store.createThread(thread)
    const fromPage = sampleTurn({ projectId, threadId: thread.id, pagePath: '/guides/webhooks' })
    const noPage = sampleTurn({ projectId, threadId: thread.id, pagePath: null, pageUrl: null })
    const unknown = message(thread.id, 'assistant', 'an answer recorded before analytics', at(3))
    await store.recordAnalytics({ turns: [fromPage, noPage] })
    await store.appendMessages(
      thread.id,
      [
        { ...message(thread.id, 'assistant', 'a', at(1)), id: fromPage.id },
        { ...message(thread.id, 'assistant', 'b', at(1)), id: noPage.id },
        unknown,
      ],
      at(3),
    )
    await store.putFeedback({ threadId: thread.id, messageId: fromPage.id, rating: 'up', createdAt: at(2) })
    await store.putFeedback({ threadId: thread.id, messageId: noPage.id, rating: 'down', comment: 'missing', createdAt: at(3) })
    await store.putFeedback({ threadId: thread.id, messageId: unknown.id, rating: 'down', createdAt: at(4) })

    const all = await store.listFeedback(projectId, { range: range(1, 10) }, { limit: 10 })
    expect(all.items.map((entry) => [entry.messageId, entry.rating, entry.path, entry.status])).toEqual([
      [unknown.id, 'down', null, 'pending'],
      [noPage.id, 'down', '/account/api-tokens', 'pending'],
      [fromPage.id, 'up', '/guides/webhooks', 'pending'],
    ])
    expect(all.items[1]).toMatchObject({ projectId, threadId: thread.id, comment: 'missing', createdAt: at(3) })
    const id = all.items[1]!.id
    expect(id).toMatch(/^fb_/)
    expect(new Set(all.items.map((entry) => entry.id)).size).toBe(3)

    const paged = await store.listFeedback(projectId, { range: range(1, 10) }, { limit: 2 })
    expect(
      (await store.listFeedback(projectId, { range: range(1, 10) }, { limit: 2, cursor: paged.nextCursor! })).items.map((e) => e.id),
    ).toEqual([all.items[2]!.id])

    const reviewed = await store.setFeedbackStatus(projectId, id, 'in_progress')
    expect(reviewed).toMatchObject({ id, status: 'in_progress', path: '/account/api-tokens', rating: 'down' })
    expect(await store.setFeedbackStatus('other', id, 'resolved')).toBeNull()
    expect(await store.setFeedbackStatus(projectId, 'fb_missing', 'resolved')).toBeNull()
    // The reader changes their mind: same id, same review status, the new rating.
    await store.putFeedback({ threadId: thread.id, messageId: noPage.id, rating: 'up', createdAt: at(5) })
    const again = await store.listFeedback(projectId, { range: range(1, 10), status: 'in_progress' }, { limit: 10 })
    expect(again.items.map((entry) => [entry.id, entry.rating, entry.createdAt])).toEqual([[id, 'up', at(5)]])
    expect((await store.listFeedback(projectId, { range: range(1, 10) }, { limit: 10 })).items).toHaveLength(3)
    expect((await store.listFeedback(projectId, { range: range(4, 5) }, { limit: 10 })).items.map((e) => e.messageId)).toEqual([unknown.id])

    expect(await store.feedbackByPage(projectId, { range: range(1, 10) }, 10)).toEqual({
      items: [
        { path: '', up: 0, down: 1 },
        { path: '/account/api-tokens', up: 1, down: 0 },
        { path: '/guides/webhooks', up: 1, down: 0 },
      ],
      hasMore: false,
    })
    expect(await store.feedbackByPage(projectId, { range: range(1, 10), status: 'pending' }, 1)).toEqual({
      items: [{ path: '', up: 0, down: 1 }],
      hasMore: true,
    })
  })

  test('analytics: search terms by hits with no-result counts, clicks, top clicked page, totals and cursors', async () => {
    const store = await open()
    const projectId = uid('project')
    const search = (query: string, day: number, resultCount: number | null = 2) =>
      sampleSearch({ projectId, query, at: at(day), resultCount })
    const click = (query: string | null, path: string, kind: 'search_result_click' | 'source_click' = 'search_result_click') => ({
      id: uid('click'),
      projectId,
      at: at(2),
      kind,
      query,
      path,
      position: 0,
      threadId: null,
      messageId: null,
    })
    await store.recordAnalytics({
      // The widget may not say how many results it found (null): a search, not one that found nothing.
      searches: [
        search('webhooks', 1),
        search('webhooks', 2, null),
        search('webhooks', 3),
        search('sso', 2, 0),
        search('sso', 3, 0),
        search('csv', 2, 0),
      ],
      clicks: [
        click('webhooks', '/guides/webhooks'),
        click('webhooks', '/guides/webhooks'),
        click('webhooks', '/api-reference/v2/webhooks'),
        click('webhooks', '/guides/webhooks', 'source_click'),
        click('never searched', '/x'),
      ],
    })
    const page = await store.searchTerms(projectId, range(1, 10), { limit: 2 })
    expect(page.totalSearches).toBe(6)
    expect(page.noResultSearches).toBe(3)
    expect(page.items).toEqual([
      { query: 'webhooks', hits: 3, noResults: 0, clicks: 3, topClickedPage: '/guides/webhooks', lastSearchedAt: at(3) },
      { query: 'sso', hits: 2, noResults: 2, clicks: 0, topClickedPage: null, lastSearchedAt: at(3) },
    ])
    const rest = await store.searchTerms(projectId, range(1, 10), { limit: 2, cursor: page.nextCursor! })
    expect(rest.items.map((term) => term.query)).toEqual(['csv'])
    expect(rest.nextCursor).toBeNull()
    const oneDay = await store.searchTerms(projectId, range(3, 4), { limit: 10 })
    expect(oneDay.items.map((term) => [term.query, term.hits])).toEqual([
      ['sso', 1],
      ['webhooks', 1],
    ])
    expect((await store.searchTerms(uid('project'), range(1, 10), { limit: 10 })).items).toEqual([])
  })

  test('analytics: gap signals are kept once, assigned once, and gaps listed biggest first', async () => {
    const store = await open()
    const projectId = uid('project')
    const signals = [1, 2, 3, 4, 5].map((day) => sampleSignal({ projectId, at: at(day) }))
    await store.recordAnalytics({ signals })
    // The same question again (rated down after being unanswered) is not a second signal.
    await store.recordAnalytics({ signals: [{ ...signals[0]!, kind: 'rated_down' }] })
    const pending = await store.listUnassignedSignals(projectId, 3)
    expect(pending.map((signal) => signal.id)).toEqual(signals.slice(0, 3).map((signal) => signal.id))
    expect(pending[0]).toEqual(signals[0])

    const big = sampleGap({ projectId, lastSeenAt: at(5) })
    const small = sampleGap({ projectId, lastSeenAt: at(2), status: 'dismissed' })
    await store.insertGap(big)
    await store.insertGap(small)
    expect(await store.getGap(projectId, big.id)).toEqual(big)
    expect(await store.getGap('other', big.id)).toBeNull()
    await store.assignSignals(big.id, [signals[0]!.id, signals[2]!.id, signals[3]!.id])
    await store.assignSignals(small.id, [signals[1]!.id, signals[0]!.id])
    expect((await store.listUnassignedSignals(projectId, 10)).map((signal) => signal.id)).toEqual([signals[4]!.id])
    const inBig = await store.listGapSignals(projectId, big.id, range(1, 10), 2)
    expect(inBig.map((signal) => [signal.id, signal.gapId])).toEqual([
      [signals[3]!.id, big.id],
      [signals[2]!.id, big.id],
    ])

    const listed = await store.listGaps(projectId, { range: range(1, 10), limit: 1 })
    expect(listed.items.map((item) => [item.gap.id, item.count, item.firstSeenAt, item.lastSeenAt])).toEqual([[big.id, 3, at(1), at(4)]])
    const next = await store.listGaps(projectId, { range: range(1, 10), limit: 1, cursor: listed.nextCursor! })
    expect(next.items.map((item) => [item.gap.id, item.count])).toEqual([[small.id, 1]])
    expect(next.nextCursor).toBeNull()
    expect((await store.listGaps(projectId, { range: range(1, 10), limit: 5, status: 'dismissed' })).items.map((i) => i.gap.id)).toEqual([
      small.id,
    ])
    expect((await store.listGaps(projectId, { range: range(3, 4), limit: 5 })).items.map((i) => [i.gap.id, i.count])).toEqual([[big.id, 1]])

    const moved = await store.updateGap(
      big.id,
      { status: 'in_progress', jobId: 'job1', lastSeenAt: at(6), merge: null },
      { ifStatusIn: ['open'] },
    )
    expect(moved).toMatchObject({ status: 'in_progress', jobId: 'job1', lastSeenAt: at(6) })
    expect(await store.updateGap(big.id, { status: 'open' }, { ifStatusIn: ['open'] })).toBeNull()
    const merge = { commit: 'abc', at: at(7), revisionAtMerge: 'r1' }
    expect(await store.updateGap(big.id, { merge, verifiedAt: at(8) })).toMatchObject({ merge, verifiedAt: at(8), status: 'in_progress' })
    expect(await store.getGap(projectId, big.id)).toMatchObject({ merge, jobId: 'job1' })
    expect(await store.updateGap('missing', { status: 'open' })).toBeNull()
    expect((await store.listGapRecords(projectId, { limit: 10 })).map((gap) => gap.id)).toEqual([big.id, small.id])
    expect((await store.listGapRecords(projectId, { limit: 10, statuses: ['dismissed'] })).map((gap) => gap.id)).toEqual([small.id])
    expect(await store.listGapRecords(projectId, { limit: 10, statuses: [] })).toEqual([])
  })

  test('analytics: any text survives, and impossible ids and cursors find nothing', async () => {
    const store = await open()
    const odd = 'nul \u0000 quote \' " backslash \\ emoji 🦊 rtl \u202e end'
    const projectId = uid('project')
    const turn = sampleTurn({ projectId, query: odd, response: odd.repeat(2000), fp: odd, pagePath: odd, category: odd })
    const signal = sampleSignal({ projectId, query: odd })
    await store.recordAnalytics({ turns: [turn], signals: [signal] })
    expect(await store.getTurn(projectId, turn.id)).toEqual(turn)
    expect((await store.summarizeTurns(projectId, range(1, 5), 'day')).categories).toEqual([{ name: odd, count: 1 }])
    expect((await store.listUnassignedSignals(projectId, 5))[0]?.query).toBe(odd)
    const gap = sampleGap({ projectId, title: odd, reason: odd })
    await store.insertGap(gap)
    expect(await store.getGap(projectId, gap.id)).toEqual(gap)
    const impossible = 'no\u0000such'
    expect(await store.getTurn(projectId, impossible)).toBeNull()
    expect(await store.getGap(projectId, impossible)).toBeNull()
    expect(await store.setFeedbackStatus(projectId, impossible, 'resolved')).toBeNull()
    expect(await store.listGapSignals(projectId, impossible, range(1, 5), 5)).toEqual([])
    // Cursors of these lists holding a key no item has (their tag is no secret): no store error, nothing after it.
    const terms = await encodeRankCursor({ list: 'search-terms', projectId }, 3, impossible)
    expect((await store.searchTerms(projectId, range(1, 5), { limit: 5, cursor: terms })).items).toEqual([])
    const gaps = await encodeRankCursor({ list: 'gaps', projectId }, 3, impossible)
    expect((await store.listGaps(projectId, { range: range(1, 5), limit: 5, cursor: gaps })).items).toEqual([])
    // A cursor no list returned is refused: read as none, it would give the first page again and a client would loop.
    await expect(store.listTurns(projectId, range(1, 5), { limit: 5, cursor: 'not a cursor' })).rejects.toMatchObject({
      code: 'invalid_request',
    })
  })

  test('analytics: retention purges old rows and threads, keeps recent ones and gaps still in use', async () => {
    const store = await open()
    const projectId = uid('project')
    const long = new Date(Date.UTC(1999, 0, 1))
    const recent = new Date(Date.UTC(2026, 0, 1))
    const cutoff = new Date(Date.UTC(1999, 6, 1))
    const oldThread = sampleThread({ projectId, createdAt: long, updatedAt: long })
    const newThread = sampleThread({ projectId, createdAt: recent, updatedAt: recent })
    await store.createThread(oldThread)
    await store.createThread(newThread)
    const oldTurn = sampleTurn({ projectId, threadId: oldThread.id, askedAt: long })
    const newTurn = sampleTurn({ projectId, threadId: newThread.id, askedAt: recent })
    const oldGap = sampleGap({ projectId, lastSeenAt: long })
    const fixing = sampleGap({ projectId, lastSeenAt: long, status: 'pr_open' })
    const kept = sampleGap({ projectId, lastSeenAt: long })
    await store.insertGap(oldGap)
    await store.insertGap(fixing)
    await store.insertGap(kept)
    await store.recordAnalytics({
      turns: [oldTurn, newTurn],
      searches: [sampleSearch({ projectId, at: long }), sampleSearch({ projectId, at: recent })],
      signals: [sampleSignal({ projectId, at: long, gapId: oldGap.id }), sampleSignal({ projectId, at: recent, gapId: kept.id })],
    })
    expect(await store.purgeAnalytics(cutoff)).toBeGreaterThanOrEqual(5)
    expect(await store.getTurn(projectId, oldTurn.id)).toBeNull()
    expect(await store.getTurn(projectId, newTurn.id)).toEqual(newTurn)
    expect(await store.getThread(projectId, oldThread.id)).toBeNull()
    expect(await store.getThread(projectId, newThread.id)).not.toBeNull()
    expect((await store.searchTerms(projectId, { from: long, to: recent }, { limit: 5 })).totalSearches).toBe(0)
    expect((await store.searchTerms(projectId, { from: long, to: new Date(Date.UTC(2027, 0, 1)) }, { limit: 5 })).totalSearches).toBe(1)
    expect(await store.getGap(projectId, oldGap.id)).toBeNull()
    expect(await store.getGap(projectId, fixing.id)).not.toBeNull()
    expect(await store.getGap(projectId, kept.id)).not.toBeNull()
  })
}
