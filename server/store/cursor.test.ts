import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { pgliteDataDir } from '../../tests/support/pglite.ts'
import { sampleJob } from './conformance-fixtures.ts'
import { decodeCursor, decodeRankCursor, encodeCursor, encodeRankCursor } from './cursor.ts'
import { openPgliteStore } from './sql/pglite.ts'
import type { SqlStore } from './sql/store.ts'

/** base64url of a text, as a client forging a cursor would make it. */
const forge = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** Cursors no list returned: mangled, cut, tampered, or holding a date the store cannot read. */
const badCursors = [
  'garbage',
  '***',
  '\uFFFD\uFFFD',
  forge('x|y'),
  forge('not-a-date|id'),
  forge('2026-03-01T00:00:00.000Z'),
  forge('0000-01-01T00:00:00Z|abc'),
  forge('0000-01-01T00:00:00.000Z|abc'),
  forge('-000001-01-01T00:00:00.000Z|abc'),
  forge('+275760-09-13T00:00:00.000Z|abc'),
  forge('+010000-01-01T00:00:00.000Z|abc'),
]
const badRankCursors = ['garbage', '***', forge('-5|x'), forge('1e400|x'), forge('1e3|x'), forge('2147483648|x'), forge('x|y'), forge('|x')]

const invalid = { code: 'invalid_request', message: expect.stringMatching(/^cursor: /) }

describe('page cursors', () => {
  test('a cursor of ours reads back as the sort key it was made from; none is null', () => {
    const at = new Date('2026-03-01T10:00:00.123Z')
    expect(decodeCursor(encodeCursor(at, 'job_a-b_c'))).toEqual({ at, id: 'job_a-b_c' })
    expect(decodeCursor(encodeCursor(new Date('0001-01-01T00:00:00Z'), 'x'))?.at).toEqual(new Date('0001-01-01T00:00:00Z'))
    expect(decodeCursor(encodeCursor(new Date('9999-12-31T23:59:59.999Z'), 'x'))?.at).toEqual(new Date('9999-12-31T23:59:59.999Z'))
    expect(decodeRankCursor(encodeRankCursor(12, 'webhooks 🦊'))).toEqual({ count: 12, key: 'webhooks 🦊' })
    expect(decodeRankCursor(encodeRankCursor(0, ''))).toEqual({ count: 0, key: '' })
    expect(decodeCursor(undefined)).toBeNull()
    expect(decodeCursor('')).toBeNull()
    expect(decodeRankCursor(undefined)).toBeNull()
  })

  test('a cursor that is not one of ours is an invalid request naming the field, never read as "from the start"', () => {
    for (const cursor of badCursors) {
      expect(() => decodeCursor(cursor), cursor).toThrow(DocentError)
      expect(() => decodeCursor(cursor), cursor).toThrow(expect.objectContaining(invalid))
    }
    for (const cursor of badRankCursors) expect(() => decodeRankCursor(cursor), cursor).toThrow(expect.objectContaining(invalid))
  })
})

describe('cursors on the embedded store (PGlite)', () => {
  let root: string
  let store: SqlStore
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'docent-cursor-'))
    store = await openPgliteStore(await pgliteDataDir(join(root, 'pglite')))
  })
  afterAll(async () => {
    await store?.close()
    await rm(root, { recursive: true, force: true })
  })

  test('every paged list refuses a forged cursor as an invalid request, not a database error', async () => {
    const range = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2026-02-01T00:00:00Z') }
    for (const cursor of badCursors) {
      const page = { limit: 5, cursor }
      for (const list of [
        () => store.listJobs('p', page),
        () => store.listThreads('p', page),
        () => store.listAutomationRuns('p', 'fix-broken-links', page),
        () => store.listTurns('p', range, page),
        () => store.listFeedback('p', { range }, page),
      ])
        await expect(list(), cursor).rejects.toMatchObject(invalid)
    }
    for (const cursor of badRankCursors) {
      await expect(store.searchTerms('p', range, { limit: 5, cursor }), cursor).rejects.toMatchObject(invalid)
      await expect(store.listGaps('p', { range, limit: 5, cursor }), cursor).rejects.toMatchObject(invalid)
    }
  })

  test('pages of one item walk the same list as one page of a hundred', async () => {
    const projectId = 'paged'
    for (let i = 0; i < 5; i++)
      await store.insertJob(sampleJob({ projectId, createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 3))), id: `job_${i}` }))
    const whole = (await store.listJobs(projectId, { limit: 100 })).items.map((job) => job.id)
    const walked: string[] = []
    let cursor: string | undefined
    do {
      const page = await store.listJobs(projectId, { limit: 1, cursor })
      walked.push(...page.items.map((job) => job.id))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(whole).toHaveLength(5)
    expect(walked).toEqual(whole)
  })
})
