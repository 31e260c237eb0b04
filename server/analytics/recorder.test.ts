import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Logger } from '../log.ts'
import type { Corpus, SearchService } from '../search/types.ts'
import { MemoryStore } from '../store/memory.ts'
import type { AnalyticsBatch } from '../store/types.ts'
import { randomIds } from '../ids.ts'
import { DECLINE_PHRASE } from './decline.ts'
import { Recorder, type TurnInput } from './recorder.ts'

/** A store whose writes wait until the test opens the gate: the store falling behind a flood of answers. */
class SlowStore extends MemoryStore {
  private opened!: () => void
  private closed = new Promise<void>((resolve) => (this.opened = resolve))
  gate = { resolve: () => this.opened() }
  writes = 0
  override async recordAnalytics(batch: AnalyticsBatch) {
    await this.closed
    this.writes++
    return super.recordAnalytics(batch)
  }
}

/**
 * A store that refuses a write holding a record it cannot keep, as PostgreSQL refuses a whole statement for one value
 * out of its column's range or a NUL in a text.
 */
class PickyStore extends MemoryStore {
  writes = 0
  override async recordAnalytics(batch: AnalyticsBatch) {
    this.writes++
    if (batch.clicks?.some((click) => (click.position ?? 0) > 2_147_483_647))
      throw new Error('value "2147483648" is out of range for type integer')
    if (batch.turns?.some((turn) => turn.query.includes('\u0000'))) throw new Error('invalid byte sequence for encoding "UTF8": 0x00')
    return super.recordAnalytics(batch)
  }
}

const noDocs: SearchService = {
  corpus: async () => ({ pages: () => [] }) as unknown as Corpus,
  refresh: async () => ({ revision: '', changed: false }),
  start() {},
  stop() {},
}

function recorder<S extends MemoryStore = SlowStore>(store = new SlowStore() as unknown as S) {
  const warnings: string[] = []
  const log: Logger = { info() {}, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) }
  const signalled: string[][] = []
  const r = new Recorder({
    store,
    search: noDocs,
    log,
    now: () => new Date(),
    ids: randomIds,
    enabled: true,
    onSignals: async (ids) => void signalled.push(ids),
  })
  return { r, store, warnings, signalled }
}

const turn = (overrides: Partial<TurnInput> = {}): TurnInput => ({
  projectId: 'p',
  threadId: 'thr_1',
  messageId: `msg_${Math.random()}`,
  question: 'Is there a Ruby SDK?',
  searchQuery: 'Is there a Ruby SDK?',
  response: 'Install it [1]',
  sources: [{ title: 'SDKs', path: 'sdks/overview', url: 'https://d/sdks/overview' }],
  resolution: 'answered',
  complete: true,
  pagePath: null,
  pageUrl: null,
  caller: 'web',
  fp: 'anonymous',
  model: 'offline-answer',
  askedAt: new Date('2026-03-01T00:00:00Z'),
  firstTokenMs: 1,
  totalMs: 2,
  ...overrides,
})

describe('the recorder', () => {
  afterEach(() => void vi.useRealTimers())

  test('writes by itself after a pause, and while answers stream waits for a quieter moment (5 s at most)', async () => {
    vi.useFakeTimers()
    const { r, store } = recorder()
    store.gate.resolve()
    const searches = async () =>
      (await store.searchTerms('p', { from: new Date(0), to: new Date(Date.now() + 1000) }, { limit: 1 })).totalSearches
    const search = () =>
      r.search({ projectId: 'p', query: 'flags', resultCount: 1, topScore: 1, caller: 'api', origin: 'search', at: new Date() })
    search()
    await vi.advanceTimersByTimeAsync(999)
    expect(await searches()).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(await searches()).toBe(1)

    r.answerStarted()
    search()
    await vi.advanceTimersByTimeAsync(3000)
    expect(await searches()).toBe(1)
    await vi.advanceTimersByTimeAsync(2000)
    expect(await searches()).toBe(2)
    r.answerEnded()
    search()
    await vi.advanceTimersByTimeAsync(1000)
    expect(await searches()).toBe(3)

    // Answers streaming without a pause do not hold a backlog back: whole batches are written at once, one after
    // the other; only the last part-batch waits.
    r.answerStarted()
    for (let i = 0; i < 250; i++) search()
    await vi.advanceTimersByTimeAsync(1000)
    await vi.advanceTimersByTimeAsync(10)
    expect(await searches()).toBe(3 + 200)
    await vi.advanceTimersByTimeAsync(5000)
    expect(await searches()).toBe(3 + 250)
  })

  test('a flood while the store is stuck is bounded: the queue stops growing and says what it dropped', async () => {
    const { r, store, warnings } = recorder()
    for (let i = 0; i < 12_000; i++)
      r.search({ projectId: 'p', query: `q${i}`, resultCount: 1, topScore: 1, caller: 'api', origin: 'search', at: new Date() })
    expect(r.pending).toBeLessThanOrEqual(10_000)
    expect(warnings).toEqual(['analytics queue full: records dropped'])
    // Long answers count by size: 32 MiB of them at most, whatever their number.
    const big = recorder()
    for (let i = 0; i < 1_000; i++) big.r.turn(turn({ response: 'x'.repeat(100_000) }))
    expect(big.r.pending).toBeLessThan(400)
    store.gate.resolve()
    big.store.gate.resolve()
    await r.flush()
    await big.r.flush()
    expect(r.pending).toBe(0)
    expect((await store.searchTerms('p', { from: new Date(0), to: new Date(Date.now() + 1000) }, { limit: 1 })).totalSearches).toBe(10_000)
  })

  test('unanswered questions become gap signals: declined or citing nothing; a cut-off answer only if it declined; a rating down', async () => {
    const { r, store, signalled } = recorder()
    store.gate.resolve()
    const declined = turn({ response: `${DECLINE_PHRASE} Nothing about ruby.`, resolution: 'unanswered' })
    const uncited = turn({ response: 'Ruby is a language.', resolution: 'unanswered' })
    const cutOff = turn({ response: 'Ruby is', resolution: 'answered', complete: false })
    const failed = turn({ response: '', resolution: 'unanswered', complete: false })
    const answered = turn()
    for (const t of [declined, uncited, cutOff, failed, answered]) r.turn(t)
    r.ratedDown('p', answered.messageId, new Date())
    r.ratedDown('p', declined.messageId, new Date())
    r.search({ projectId: 'p', query: '  Ruby   SDK ', resultCount: 0, topScore: null, caller: 'web', origin: 'widget', at: new Date() })
    r.events('p', [{ type: 'search', query: 'ruby gem' }], 'web', new Date())
    await r.flush()
    const signals = await store.listUnassignedSignals('p', 10)
    expect(signals.map((s) => [s.id, s.kind])).toEqual(
      expect.arrayContaining([
        [declined.messageId, 'unanswered'],
        [uncited.messageId, 'unanswered'],
        [answered.messageId, 'rated_down'],
        [expect.stringMatching(/^srch_/), 'no_results'],
      ]),
    )
    expect(signals).toHaveLength(4)
    expect(signals.find((s) => s.kind === 'no_results')).toMatchObject({ query: 'ruby sdk', terms: ['ruby', 'sdk'] })
    expect(signalled.flat()).toContain('p')
  })

  test('a record the store refuses is dropped and logged alone: the rest of its batch is stored', async () => {
    const { r, store, warnings, signalled } = recorder(new PickyStore())
    const search = (query: string, resultCount: number) =>
      r.search({ projectId: 'p', query, resultCount, topScore: null, caller: 'web', origin: 'widget', at: new Date() })
    search('flags', 3)
    const kept = turn({ response: 'Ruby is a language.', resolution: 'unanswered' })
    r.turn(kept)
    r.events('p', [{ type: 'source_click', path: '/a', position: 2_147_483_648 }], 'web', new Date())
    r.events('p', [{ type: 'search_result_click', query: 'flags', path: '/flags', position: 1 }], 'web', new Date())
    const refused = turn({ question: 'nul \u0000 in it', response: `${DECLINE_PHRASE} nothing`, resolution: 'unanswered' })
    r.turn(refused)
    search('nothing here', 0)
    await r.flush()

    const range = { from: new Date(0), to: new Date(Date.now() + 1000) }
    const terms = await store.searchTerms('p', range, { limit: 10 })
    expect(terms.items.map((term) => [term.query, term.clicks])).toEqual([
      ['flags', 1],
      ['nothing here', 0],
    ])
    expect(await store.getTurn('p', kept.messageId)).not.toBeNull()
    expect(await store.getTurn('p', refused.messageId)).toBeNull()
    // The gap signals of the stored records are kept and reported; the refused turn's went with it.
    const signals = await store.listUnassignedSignals('p', 10)
    expect(signals.map((signal) => signal.kind).sort()).toEqual(['no_results', 'unanswered'])
    expect(signals.find((signal) => signal.kind === 'unanswered')?.id).toBe(kept.messageId)
    expect(signalled.flat()).toContain('p')
    expect(warnings).toEqual(['analytics records refused by the store were dropped'])
    expect(r.pending).toBe(0)
  })
  test('a click counts for the docs page it names, a place on the page for the page; any other path counts none', async () => {
    const { r, store } = recorder(new MemoryStore())
    const at = new Date()
    r.search({ projectId: 'p', query: 'flags', resultCount: 3, topScore: null, caller: 'web', origin: 'widget', at })
    const click = (path: string) => ({ type: 'search_result_click' as const, query: 'flags', path, position: 1 })
    // The events route refuses these with a 400; the recorder keeps none of them either.
    r.events('p', ['https://evil.example/phish', 'javascript:alert(1)', '=HYPERLINK("x")', '#top'].map(click), 'web', at)
    r.events('p', [click('/guides/flags#create'), click('/guides/flags?tab=go')], 'web', at)
    await r.flush()
    const terms = await store.searchTerms('p', { from: new Date(0), to: new Date(Date.now() + 1000) }, { limit: 10 })
    expect(terms.items).toMatchObject([{ query: 'flags', clicks: 2, topClickedPage: '/guides/flags' }])
  })
})
