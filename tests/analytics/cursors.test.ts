import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fillLists } from '../../server/store/conformance-cursors.ts'
import { bearer, DEMO_DOCS, testDocent } from '../support/app.ts'
import { forgeCursor } from './support.ts'

// A cursor pages the list that gave it out, of the project it lists, and nothing else: the probe's /assistant cursor
// was taken by /feedback, by /v2/assistant/{projectId}/threads and by another project's /assistant, a /searches cursor
// by /gaps, and a hand-made base64 of a sort key by them all.

type TestDocent = Awaited<ReturnType<typeof testDocent>>
let t: TestDocent

beforeAll(async () => {
  const project = (id: string) => ({
    id,
    organization: 'demo',
    domain: id,
    docs: { directory: DEMO_DOCS, public: true },
    allowedOrigins: ['*'],
    agent: { repository: `local:${id}` },
  })
  // Two projects of one organization: its admin key reads both, so only the cursor can tell them apart.
  t = await testDocent({ projects: [project('demo'), project('handbook')] })
  for (const projectId of ['demo', 'handbook']) await fillLists(t.store, projectId)
})
afterAll(() => t?.docent.stop())

const RANGE = 'dateFrom=2026-01-01&dateTo=2026-12-31'
/** Every paged list of a project; the console's jobs are the agent's jobs list, so they share cursors. */
const lists = (project: string) => ({
  jobs: `/v2/agent/${project}/jobs`,
  consoleJobs: `/console/api/${project}/jobs`,
  threads: `/v2/assistant/${project}/threads`,
  runs: `/v2/agent/${project}/automations/fix-broken-links/runs`,
  conversations: `/v1/analytics/${project}/assistant?${RANGE}`,
  feedback: `/v1/analytics/${project}/feedback?${RANGE}`,
  searches: `/v1/analytics/${project}/searches?${RANGE}`,
  gaps: `/v1/analytics/${project}/gaps?${RANGE}`,
})
type List = keyof ReturnType<typeof lists>
const sameList = (a: List, b: List) => a === b || [a, b].every((name) => name === 'jobs' || name === 'consoleJobs')

const get = (path: string, query: string) =>
  t.app.request(`${path}${path.includes('?') ? '&' : '?'}${query}`, { headers: bearer(t.keys.admin) })

async function refused(
  path: string,
  cursor: string,
  message = /^cursor: invalid; pass nextCursor of the previous page of this list unchanged$/,
) {
  const response = await get(path, `cursor=${encodeURIComponent(cursor)}`)
  expect(response.status, `${path} ${cursor.slice(0, 40)}`).toBe(400)
  expect(((await response.json()) as { error: string }).error, path).toMatch(message)
}

/** The nextCursor of the first page of one item. */
async function firstCursor(path: string): Promise<string> {
  const response = await get(path, 'limit=1')
  expect(response.status, path).toBe(200)
  const cursor = ((await response.json()) as { nextCursor: string | null }).nextCursor
  expect(cursor, path).toEqual(expect.any(String))
  return cursor!
}

describe('cursors', () => {
  test('a cursor pages only the list and project that gave it: any other list, or the same list of another project, is a 400', async () => {
    const demo = lists('demo')
    const handbook = lists('handbook')
    for (const name of Object.keys(demo) as List[]) {
      const cursor = await firstCursor(demo[name])
      const next = await get(demo[name], `limit=1&cursor=${encodeURIComponent(cursor)}`)
      expect(next.status, name).toBe(200)
      for (const other of Object.keys(demo) as List[]) {
        if (sameList(name, other)) expect((await get(demo[other], `cursor=${encodeURIComponent(cursor)}`)).status).toBe(200)
        else await refused(demo[other], cursor)
      }
      await refused(handbook[name], cursor)
      // And the other way round: the other project's cursor on this project's list.
      await refused(demo[name], await firstCursor(handbook[name]))
    }
    const runs = await firstCursor(demo.runs)
    await refused('/v2/agent/demo/automations/fix-typos/runs', runs)
  })

  test('a forged or edited cursor is a 400: plain base64 of a sort key, the count and term of a search, a changed character', async () => {
    const demo = lists('demo')
    const dated: List[] = ['jobs', 'consoleJobs', 'threads', 'runs', 'conversations', 'feedback']
    for (const name of dated) {
      await refused(demo[name], forgeCursor('9999-12-31T00:00:00.000Z|zzz'))
      await refused(demo[name], forgeCursor('2026-03-02T12:00:00.000Z|msg'))
    }
    for (const name of ['searches', 'gaps'] as const) {
      await refused(demo[name], forgeCursor('3|webhooks'))
      await refused(demo[name], forgeCursor('1|gap'))
    }
    for (const name of Object.keys(demo) as List[]) {
      const cursor = await firstCursor(demo[name])
      const edited = cursor.slice(0, 3) + (cursor[3] === 'A' ? 'B' : 'A') + cursor.slice(4)
      await refused(demo[name], edited)
    }
  })

  test('an oversize cursor is a 400 with a JSON error naming it, before any store reads it', async () => {
    for (const path of Object.values(lists('demo'))) {
      for (const length of [201, 4097, 100_000]) {
        if (length === 201 && path.startsWith('/v1/')) continue
        await refused(path, 'A'.repeat(length), /^cursor: must be at most (200|4096) characters$/)
      }
    }
  })

  test('the cursor after the longest search term a reader can type is taken back (it was refused past 500 characters)', async () => {
    const term = (letter: string) => `${letter}${'日本語'.repeat(166)}${letter}`
    const searches = ['x', 'y'].map((letter) => ({
      id: `search_${letter}_long`,
      projectId: 'demo',
      at: new Date('2026-03-01T12:00:00Z'),
      query: term(letter),
      resultCount: 1,
      topScore: 1,
      caller: 'web' as const,
      origin: 'search' as const,
    }))
    await t.store.recordAnalytics({ turns: [], searches, signals: [] })
    let cursor = ''
    const seen: string[] = []
    do {
      const response = await get(lists('demo').searches, `limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as { searches: Array<{ searchQuery: string }>; nextCursor: string | null }
      seen.push(...body.searches.map((search) => search.searchQuery))
      cursor = body.nextCursor ?? ''
    } while (cursor)
    expect(seen).toEqual(expect.arrayContaining([term('x'), term('y')]))
  })
})
