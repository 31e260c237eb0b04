import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { pgliteDataDir } from '../../tests/support/pglite.ts'
import { sampleJob } from './conformance-fixtures.ts'
import { type CursorScope, decodeCursor, decodeRankCursor, encodeCursor, encodeRankCursor } from './cursor.ts'
import { openPgliteStore } from './sql/pglite.ts'
import type { SqlStore } from './sql/store.ts'

/** base64url of bytes, as a client forging a cursor would make it. */
const base64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
/** A cursor as lists wrote them before they were tagged (the sort key, base64url): what the probe forged. */
const forge = (text: string) => base64Url(new TextEncoder().encode(text))

const turns: CursorScope = { list: 'turns', projectId: 'p' }
const terms: CursorScope = { list: 'search-terms', projectId: 'p' }

/**
 * A cursor with the right tag around any text, as someone who read cursor.ts can make one (the tag is no secret): the
 * sort key is still checked, so the stores never read a date or count they cannot hold.
 */
async function forgeTagged(scope: CursorScope, text: string): Promise<string> {
  const body = new TextEncoder().encode(text)
  const head = new TextEncoder().encode(`${JSON.stringify(['docent-cursor/1', scope.list, scope.projectId, scope.automationId ?? null])}\n`)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array([...head, ...body])))
  return base64Url(new Uint8Array([...digest.slice(0, 8), ...body]))
}

/** Sort keys no list writes: no date, a year the stores cannot read, no id. */
const badKeys = [
  'x|y',
  'not-a-date|id',
  '2026-03-01T00:00:00.000Z',
  '2026-03-01T00:00:00.000Z|',
  '0000-01-01T00:00:00Z|abc',
  '0000-01-01T00:00:00.000Z|abc',
  '-000001-01-01T00:00:00.000Z|abc',
  '+275760-09-13T00:00:00.000Z|abc',
  '+010000-01-01T00:00:00.000Z|abc',
]
const badRankKeys = ['-5|x', '1e400|x', '1e3|x', '2147483648|x', 'x|y', '|x']
/** Cursors no list returned: mangled, cut, the untagged ones of before, too long. */
const badCursors = [
  'garbage',
  '***',
  '\uFFFD\uFFFD',
  'A'.repeat(5000),
  forge('2026-03-01T00:00:00.000Z|abc'),
  forge('9999-12-31T00:00:00.000Z|zzz'),
  forge('3|webhooks'),
  ...badKeys.map(forge),
]

const invalid = { code: 'invalid_request', message: expect.stringMatching(/^cursor: invalid/) }

describe('page cursors', () => {
  test('a cursor of ours reads back as the sort key it was made from, in the same scope; none is null', async () => {
    const at = new Date('2026-03-01T10:00:00.123Z')
    expect(await decodeCursor(turns, await encodeCursor(turns, at, 'job_a-b_c'))).toEqual({ at, id: 'job_a-b_c' })
    const first = new Date('0001-01-01T00:00:00Z')
    expect((await decodeCursor(turns, await encodeCursor(turns, first, 'x')))?.at).toEqual(first)
    const last = new Date('9999-12-31T23:59:59.999Z')
    expect((await decodeCursor(turns, await encodeCursor(turns, last, 'x')))?.at).toEqual(last)
    expect(await decodeRankCursor(terms, await encodeRankCursor(terms, 12, 'webhooks 🦊'))).toEqual({ count: 12, key: 'webhooks 🦊' })
    expect(await decodeRankCursor(terms, await encodeRankCursor(terms, 0, ''))).toEqual({ count: 0, key: '' })
    // The longest key a list pages by, a search term of 500 characters of 3 bytes each.
    const long = '漢'.repeat(500)
    expect(await decodeRankCursor(terms, await encodeRankCursor(terms, 7, long))).toEqual({ count: 7, key: long })
    expect(await decodeCursor(turns, undefined)).toBeNull()
    expect(await decodeCursor(turns, '')).toBeNull()
    expect(await decodeRankCursor(terms, undefined)).toBeNull()
  })

  test('a cursor is opaque: no sort key shows in it', async () => {
    const cursor = await encodeCursor(turns, new Date('2026-03-01T10:00:00Z'), 'msg_1')
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(cursor).not.toBe(forge('2026-03-01T10:00:00.000Z|msg_1'))
  })

  test('a cursor of another list, project or automation is an invalid request', async () => {
    const at = new Date('2026-03-01T10:00:00Z')
    const cursor = await encodeCursor(turns, at, 'msg_1')
    const others: CursorScope[] = [
      { list: 'feedback', projectId: 'p' },
      { list: 'threads', projectId: 'p' },
      { list: 'jobs', projectId: 'p' },
      { list: 'turns', projectId: 'q' },
      { list: 'turns', projectId: 'p ' },
    ]
    for (const scope of others) await expect(decodeCursor(scope, cursor), JSON.stringify(scope)).rejects.toMatchObject(invalid)
    const runs: CursorScope = { list: 'automation-runs', projectId: 'p', automationId: 'fix-broken-links' }
    const run = await encodeCursor(runs, at, 'run_1')
    expect(await decodeCursor(runs, run)).toEqual({ at, id: 'run_1' })
    await expect(decodeCursor({ ...runs, automationId: 'fix-typos' }, run)).rejects.toMatchObject(invalid)
    const ranked = await encodeRankCursor(terms, 3, 'webhooks')
    await expect(decodeRankCursor({ list: 'gaps', projectId: 'p' }, ranked)).rejects.toMatchObject(invalid)
    await expect(decodeRankCursor({ list: 'search-terms', projectId: 'q' }, ranked)).rejects.toMatchObject(invalid)
  })

  test('a cursor that is not one of ours is an invalid request naming the field, never read as "from the start"', async () => {
    for (const cursor of badCursors) {
      await expect(decodeCursor(turns, cursor), cursor.slice(0, 40)).rejects.toThrow(DocentError)
      await expect(decodeCursor(turns, cursor), cursor.slice(0, 40)).rejects.toMatchObject(invalid)
      await expect(decodeRankCursor(terms, cursor), cursor.slice(0, 40)).rejects.toMatchObject(invalid)
    }
    // Tagged right but holding a key no list writes.
    for (const key of badKeys) await expect(decodeCursor(turns, await forgeTagged(turns, key)), key).rejects.toMatchObject(invalid)
    for (const key of badRankKeys) await expect(decodeRankCursor(terms, await forgeTagged(terms, key)), key).rejects.toMatchObject(invalid)
    // The forger's tag is the lists' own: well-formed keys are read.
    expect(await decodeCursor(turns, await forgeTagged(turns, '2026-03-01T00:00:00.000Z|m'))).toEqual({
      at: new Date('2026-03-01T00:00:00.000Z'),
      id: 'm',
    })
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
    const dated: Array<[CursorScope, (cursor: string) => Promise<unknown>]> = [
      [{ list: 'jobs', projectId: 'p' }, (cursor) => store.listJobs('p', { limit: 5, cursor })],
      [{ list: 'threads', projectId: 'p' }, (cursor) => store.listThreads('p', { limit: 5, cursor })],
      [
        { list: 'automation-runs', projectId: 'p', automationId: 'fix-broken-links' },
        (cursor) => store.listAutomationRuns('p', 'fix-broken-links', { limit: 5, cursor }),
      ],
      [turns, (cursor) => store.listTurns('p', range, { limit: 5, cursor })],
      [{ list: 'feedback', projectId: 'p' }, (cursor) => store.listFeedback('p', { range }, { limit: 5, cursor })],
    ]
    const ranked: Array<[CursorScope, (cursor: string) => Promise<unknown>]> = [
      [terms, (cursor) => store.searchTerms('p', range, { limit: 5, cursor })],
      [{ list: 'gaps', projectId: 'p' }, (cursor) => store.listGaps('p', { range, limit: 5, cursor })],
    ]
    for (const [scope, list] of [...dated, ...ranked]) {
      for (const cursor of badCursors) await expect(list(cursor), `${scope.list} ${cursor.slice(0, 40)}`).rejects.toMatchObject(invalid)
    }
    for (const [scope, list] of dated) {
      for (const key of badKeys) await expect(list(await forgeTagged(scope, key)), `${scope.list} ${key}`).rejects.toMatchObject(invalid)
    }
    for (const [scope, list] of ranked) {
      for (const key of badRankKeys)
        await expect(list(await forgeTagged(scope, key)), `${scope.list} ${key}`).rejects.toMatchObject(invalid)
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
