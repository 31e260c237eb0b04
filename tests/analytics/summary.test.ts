import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ConversationList, ConversationSummary } from '../../shared/analytics.ts'
import { sampleTurn } from '../../server/store/conformance-analytics.ts'
import { rateTurns, sampleThread } from '../../server/store/conformance-fixtures.ts'
import type { TurnRecord } from '../../server/store/types.ts'
import { type Embedded, embeddedDocent } from '../analytics/support.ts'

// The summary counts every conversation of a range on the server, past the 2,000 the console used to sample: on the
// embedded default (PGlite), 3,000 answers over a year and a half, 2,100 of them on one day, with 30 ratings.

const DAY = 86_400_000
const LAST_DAY = '2026-11-30'
const BUSY_DAY = 2_100
const SPREAD = 900

let t: Embedded
const turns: TurnRecord[] = []

beforeAll(async () => {
  // Retention would purge the older answers once the worker runs: keep ten years.
  t = await embeddedDocent({}, { analytics: { retentionDays: 3650 } })
  const thread = sampleThread({ projectId: 'demo' })
  const turn = (askedAt: Date, resolution: TurnRecord['resolution'], category: string | null) =>
    sampleTurn({ projectId: 'demo', threadId: thread.id, askedAt, resolution, category })
  // One busy day: more questions than the console's old sample held in all.
  for (let i = 0; i < BUSY_DAY; i++)
    turns.push(turn(new Date(Date.parse(LAST_DAY) + i * 40_000), i % 3 === 0 ? 'unanswered' : 'answered', 'Guides'))
  // And a quieter year and a half before it, from Sunday 2025-06-01 to 2026-11-29.
  for (let j = 0; j < SPREAD; j++) {
    const askedAt = new Date(Date.parse('2025-06-01T09:00:00Z') + Math.floor((j * 547) / SPREAD) * DAY)
    turns.push(turn(askedAt, j % 4 === 0 ? 'unanswered' : 'answered', j % 2 ? 'Account' : null))
  }
  const outside = [
    turn(new Date('2025-05-31T23:59:59.999Z'), 'answered', 'Guides'),
    turn(new Date('2026-12-01T00:00:00Z'), 'answered', 'Guides'),
  ]
  const { store, search } = t.docent.context
  // The demo's docs repository is made on first use, in the background: made before the test ends, not under its rm.
  await search.corpus('demo')
  await store.createThread(thread)
  await store.recordAnalytics({ turns: [...turns, ...outside] })
  // Thirty ratings given on the last day: twenty up, ten down.
  await rateTurns(store, thread.id, turns.slice(0, 30), 20, new Date(`${LAST_DAY}T12:00:00Z`))
})
afterAll(() => t?.stop())

const summary = async (query: string) => ConversationSummary.parse(await t.get(`/v1/analytics/demo/assistant/summary?${query}`))
const day = (at: Date) => at.toISOString().slice(0, 10)
/** The Monday (UTC) of the week a time is in, written out the long way. */
const monday = (at: Date) => day(new Date(Date.parse(day(at)) - ((at.getUTCDay() + 6) % 7) * DAY))

describe('the summary of a range', () => {
  test('counts all 3,000 conversations of a year and a half, week by week, with every empty week', async () => {
    const long = await summary(`dateFrom=2025-06-01&dateTo=${LAST_DAY}`)
    expect({ conversations: long.conversations, answered: long.answered, unanswered: long.unanswered }).toEqual({
      conversations: 3000,
      answered: 1400 + 675,
      unanswered: 700 + 225,
    })
    expect(long.bucket).toBe('week')
    const expected = new Map<string, { answered: number; unanswered: number }>()
    for (let at = Date.parse('2025-05-26'); at <= Date.parse(LAST_DAY); at += 7 * DAY)
      expected.set(day(new Date(at)), { answered: 0, unanswered: 0 })
    for (const turn of turns) expected.get(monday(turn.askedAt))![turn.resolution]++
    expect(long.buckets).toEqual([...expected].map(([start, counts]) => ({ start, ...counts })))
    expect(long.buckets).toHaveLength(80)
    expect(long.buckets.at(-1)).toEqual({ start: LAST_DAY, answered: 1400, unanswered: 700 })
    expect(long.categories).toEqual([
      { name: 'Guides', count: BUSY_DAY },
      { name: 'Account', count: 450 },
      { name: null, count: 450 },
    ])
    expect(long.ratings).toEqual({ up: 20, down: 10 })
  })

  test('one day with 2,100 questions counts them all', async () => {
    expect(await summary(`dateFrom=${LAST_DAY}&dateTo=${LAST_DAY}`)).toEqual({
      conversations: BUSY_DAY,
      answered: 1400,
      unanswered: 700,
      bucket: 'day',
      buckets: [{ start: LAST_DAY, answered: 1400, unanswered: 700 }],
      categories: [{ name: 'Guides', count: BUSY_DAY }],
      ratings: { up: 20, down: 10 },
    })
  })

  test('the bucket grows with the range: days up to 180 of them, then weeks, months, years', async () => {
    const days = await summary('dateFrom=2026-06-04&dateTo=2026-11-30')
    expect([days.bucket, days.buckets.length, days.buckets[0]!.start]).toEqual(['day', 180, '2026-06-04'])
    const weeks = await summary('dateFrom=2026-06-03&dateTo=2026-11-30')
    expect([weeks.bucket, weeks.buckets[0]!.start]).toEqual(['week', '2026-06-01'])
    const months = await summary('dateFrom=2020-01-01&dateTo=2026-11-30')
    expect([months.bucket, months.buckets.length, months.buckets[0]!.start, months.buckets.at(-1)!.start]).toEqual([
      'month',
      83,
      '2020-01-01',
      '2026-11-01',
    ])
    expect(months.buckets.find((bucket) => bucket.start === '2025-06-01')).toEqual({
      start: '2025-06-01',
      answered: turns.filter((turn) => day(turn.askedAt).startsWith('2025-06') && turn.resolution === 'answered').length,
      unanswered: turns.filter((turn) => day(turn.askedAt).startsWith('2025-06') && turn.resolution === 'unanswered').length,
    })
    // The range the Overview could not draw past its 401st day: 1999 to now, year by year.
    const years = await summary(`dateFrom=1999-01-01&dateTo=${LAST_DAY}`)
    expect(years.bucket).toBe('year')
    expect(years.buckets.map((bucket) => bucket.start)).toEqual(Array.from({ length: 28 }, (_, i) => `${1999 + i}-01-01`))
    expect(years.buckets.at(-2)).toEqual({
      start: '2025-01-01',
      // With the answer of 2025-05-31, the day before the first range.
      answered: turns.filter((turn) => turn.askedAt.getUTCFullYear() === 2025 && turn.resolution === 'answered').length + 1,
      unanswered: turns.filter((turn) => turn.askedAt.getUTCFullYear() === 2025 && turn.resolution === 'unanswered').length,
    })
    expect(years.conversations).toBe(3001)
    // The default, the last 30 days: every day the range touches.
    const recent = await summary('')
    expect([recent.bucket, recent.buckets.length, recent.buckets.at(-1)!.start]).toEqual(['day', 31, day(new Date())])
  })

  test('the list pages through the same 3,000 to the oldest', async () => {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const page: ConversationList = ConversationList.parse(
        await t.get(`/v1/analytics/demo/assistant?dateFrom=2025-06-01&dateTo=${LAST_DAY}&limit=100${cursor ? `&cursor=${cursor}` : ''}`),
      )
      ids.push(...page.conversations.map((conversation) => conversation.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(new Set(ids).size).toBe(3000)
    expect(ids.at(-1)).toBe(turns[BUSY_DAY]!.id)
  })

  test('is in the OpenAPI document and guarded like the other analytics routes', async () => {
    const doc = (await (await fetch(`${t.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> }
    expect(doc.paths['/v1/analytics/{projectId}/assistant/summary']?.get).toBeDefined()
    const path = `${t.url}/v1/analytics/demo/assistant/summary`
    expect((await fetch(path)).status).toBe(401)
    expect((await fetch(path, { headers: { authorization: `Bearer ${t.assistant}` } })).status).toBe(403)
    const backwards = await fetch(`${path}?dateFrom=2026-02-01&dateTo=2026-01-01`, { headers: { authorization: `Bearer ${t.admin}` } })
    expect(backwards.status).toBe(400)
    expect(((await backwards.json()) as { error: string }).error).toBe('dateFrom: must be before dateTo')
  })
})
