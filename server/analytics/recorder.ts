import type { Caller, Resolution } from '../../shared/analytics.ts'
import type { Source } from '../../shared/assistant.ts'
import type { DocentEvent } from '../../shared/events.ts'
import type { IdSource } from '../ids.ts'
import type { Logger } from '../log.ts'
import type { SearchService } from '../search/types.ts'
import type { AnalyticsBatch, ClickRecord, GapSignalRecord, SearchRecord, Store, TurnRecord } from '../store/types.ts'
import { categoryOf } from './categories.ts'
import { isDecline } from './decline.ts'
import { questionTerms } from './gaps/question-terms.ts'
import { cleanLine, docsPath, normalizeQuery } from './normalize.ts'
import { nextTurn } from '../event-loop.ts'

/** An answer as it ended, from the assistant routes. */
export interface TurnInput {
  projectId: string
  threadId: string
  messageId: string
  question: string
  searchQuery: string
  response: string
  sources: Source[]
  resolution: Resolution
  /** False when the reader left or the model failed before the answer ended. */
  complete: boolean
  pagePath: string | null
  pageUrl: string | null
  caller: Caller
  fp: string
  model: string
  askedAt: Date
  firstTokenMs: number | null
  totalMs: number
}

export interface SearchInput {
  projectId: string
  query: string
  resultCount: number | null
  topScore: number | null
  caller: Caller
  origin: SearchRecord['origin']
  at: Date
}

type Pending =
  | { kind: 'turn'; turn: TurnInput }
  | { kind: 'search'; search: SearchInput }
  | { kind: 'click'; click: ClickRecord }
  | { kind: 'rated_down'; projectId: string; messageId: string; at: Date }

export interface RecorderDeps {
  store: Store
  search: SearchService
  log: Logger
  now: () => Date
  ids: IdSource
  enabled: boolean
  /** Called after a batch wrote unanswered questions of these projects (gaps then take them in). */
  onSignals(projectIds: string[]): Promise<void>
}

/**
 * Bounds of the queue between the answer and the store. Recording never waits on the store: an answer only pushes
 * here. When the store falls behind for long, the newest records are dropped (and counted) rather than memory growing.
 */
const MAX_PENDING = 10_000
const MAX_PENDING_CHARS = 32 * 1024 * 1024
/**
 * Rows per write. PGlite runs a statement on the server's own thread: 100 answers take it about 15 ms, short enough
 * not to hold up an answer for long, and the writes of a long queue yield to the event loop between batches.
 */
const BATCH = 100
/**
 * Records wait a moment so that many go into one write (a row costs a fifth as much in a batch of 100 as alone on
 * PGlite), and wait longer while answers are streaming, so the store's work falls between answers; never longer than
 * MAX_DELAY_MS or past a few batches.
 */
const FLUSH_DELAY_MS = 1000
const MAX_DELAY_MS = 5000

/** What analytics records: answers, searches, widget clicks and ratings, written to the store in the background. */
export class Recorder {
  private queue: Array<{ item: Pending; size: number }> = []
  private chars = 0
  private timer: ReturnType<typeof setTimeout> | undefined
  private running: Promise<void> | undefined
  private dropped = 0
  private lastDropWarning = 0
  private answering = 0
  private oldest = 0

  constructor(private readonly deps: RecorderDeps) {}

  turn(turn: TurnInput) {
    this.push({ kind: 'turn', turn }, turn.question.length + turn.response.length + 500)
  }

  search(search: SearchInput) {
    this.push({ kind: 'search', search }, search.query.length + 200)
  }

  /** The widget's reports: settled searches count as searches, result and source clicks as clicks. */
  events(projectId: string, events: DocentEvent[], caller: Caller, at: Date) {
    for (const event of events) {
      if (event.type === 'search') {
        if (!event.query?.trim()) continue
        this.search({ projectId, query: event.query, resultCount: event.resultCount ?? null, topScore: null, caller, origin: 'widget', at })
        continue
      }
      // The events route refuses any other path; one that names no page (empty, or only `#x`) counts no click.
      const path = docsPath(event.path ?? '')
      if (!path) continue
      const click: ClickRecord = {
        id: this.deps.ids('click'),
        projectId,
        at,
        kind: event.type,
        query: event.type === 'search_result_click' && event.query ? normalizeQuery(event.query) : null,
        path,
        position: event.position ?? null,
        threadId: event.threadId ?? null,
        messageId: event.messageId ?? null,
      }
      this.push({ kind: 'click', click }, 300)
    }
  }

  /** A reader rated an answer down: its question becomes a gap signal (once, whatever else made it one). */
  ratedDown(projectId: string, messageId: string, at: Date) {
    this.push({ kind: 'rated_down', projectId, messageId, at }, 100)
  }

  /** An answer started streaming (the queue waits for a quieter moment while answers stream). */
  answerStarted() {
    this.answering++
  }

  answerEnded() {
    this.answering = Math.max(0, this.answering - 1)
  }

  /** Writes everything queued so far (the analytics API calls this first, so a reader sees what just happened). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    while (this.running || this.queue.length > 0) {
      if (!this.running) this.running = this.drain(true)
      await this.running
    }
  }

  get pending(): number {
    return this.queue.length
  }

  private push(item: Pending, size: number) {
    if (!this.deps.enabled) return
    if (this.queue.length >= MAX_PENDING || this.chars + size > MAX_PENDING_CHARS) {
      this.dropped++
      const now = Date.now()
      if (now - this.lastDropWarning > 60_000) {
        this.lastDropWarning = now
        this.deps.log.warn('analytics queue full: records dropped', { dropped: this.dropped, pending: this.queue.length })
      }
      return
    }
    if (this.queue.length === 0) this.oldest = Date.now()
    this.queue.push({ item, size })
    this.chars += size
    this.schedule()
  }

  /**
   * The next write: after a pause (longer while answers stream) when less than a batch waits; at once, batch after
   * batch with the event loop free between them, when a batch or more does, so the store keeps up with any load.
   */
  private schedule(delay = FLUSH_DELAY_MS) {
    if (this.timer || this.running) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      const waited = Date.now() - this.oldest
      if (this.answering > 0 && waited < MAX_DELAY_MS && this.queue.length < BATCH) return this.schedule()
      this.running ??= this.drain(false)
      void this.running.then(() => {
        if (this.queue.length > 0) this.schedule(this.queue.length >= BATCH ? 0 : FLUSH_DELAY_MS)
      })
    }, delay)
  }

  /** Writes one batch, or (`all`) batches until the queue is empty. */
  private async drain(all: boolean): Promise<void> {
    try {
      do {
        const batch = this.queue.splice(0, BATCH)
        this.oldest = Date.now()
        for (const { size } of batch) this.chars -= size
        if (batch.length === 0) break
        await this.write(batch.map(({ item }) => item)).catch((error: unknown) =>
          this.deps.log.error('analytics records could not be stored', { records: batch.length, error: String(error) }),
        )
        if (all && this.queue.length > 0) await nextTurn()
      } while (all && this.queue.length > 0)
    } finally {
      this.running = undefined
    }
  }

  private async write(items: Pending[]) {
    const batch = await this.batchOf(items)
    const stored = await this.deps.store.recordAnalytics(batch).then(
      () => batch.signals,
      () => this.writeOneByOne(batch),
    )
    if (stored.length > 0) await this.deps.onSignals([...new Set(stored.map((signal) => signal.projectId))])
  }

  /**
   * The store refused the batch: one value it cannot hold (a number past its column, a NUL in a text) fails the whole
   * write. Each record is tried alone, with its gap signals, so that only the refused ones are lost. Returns the
   * signals stored.
   */
  private async writeOneByOne(batch: RecordBatch): Promise<GapSignalRecord[]> {
    const stored: GapSignalRecord[] = []
    const refused: string[] = []
    let firstError: unknown
    const parts = partsOf(batch)
    for (const { record, part } of parts) {
      try {
        await this.deps.store.recordAnalytics(part)
        stored.push(...part.signals)
      } catch (error) {
        firstError ??= error
        refused.push(record)
      }
    }
    if (refused.length > 0) {
      this.deps.log.error('analytics records refused by the store were dropped', {
        dropped: refused.length,
        of: parts.length,
        records: refused.slice(0, 10),
        error: String(firstError),
      })
    }
    return stored
  }

  /** The store's records of queued items; ratings last, as the rated answer may be in the same items. */
  private async batchOf(items: Pending[]): Promise<RecordBatch> {
    const turns: TurnRecord[] = []
    const searches: SearchRecord[] = []
    const clicks: ClickRecord[] = []
    const signals: GapSignalRecord[] = []
    for (const item of items) {
      if (item.kind === 'turn') {
        const turn = await this.turnRecord(item.turn)
        turns.push(turn)
        if (isGapSignal(item.turn)) signals.push(signalOf(turn, 'unanswered'))
      } else if (item.kind === 'search') {
        const search = searchRecord(item.search, this.deps.ids)
        if (!search) continue
        searches.push(search)
        if (search.resultCount === 0) {
          signals.push({
            id: search.id,
            projectId: search.projectId,
            at: search.at,
            kind: 'no_results',
            query: search.query,
            terms: questionTerms(search.query),
            sections: [],
            pageUrl: null,
            gapId: null,
          })
        }
      } else if (item.kind === 'click') {
        clicks.push(item.click)
      }
    }
    // Ratings last: the rated answer may be in this very batch.
    for (const item of items) {
      if (item.kind !== 'rated_down') continue
      const turn = turns.find((t) => t.id === item.messageId) ?? (await this.deps.store.getTurn(item.projectId, item.messageId))
      if (turn) signals.push({ ...signalOf(turn, 'rated_down'), at: turn.askedAt })
    }
    return { turns, searches, clicks, signals }
  }

  private async turnRecord(turn: TurnInput): Promise<TurnRecord> {
    const corpus = await this.deps.search.corpus(turn.projectId).catch(() => null)
    return {
      id: turn.messageId,
      projectId: turn.projectId,
      threadId: turn.threadId,
      askedAt: turn.askedAt,
      query: turn.question,
      searchQuery: turn.searchQuery,
      response: turn.response,
      sources: turn.sources,
      resolution: turn.resolution,
      category: corpus ? categoryOf(corpus, turn.sources[0]?.path) : null,
      pagePath: turn.pagePath,
      pageUrl: turn.pageUrl,
      caller: turn.caller,
      fp: turn.fp,
      model: turn.model,
      firstTokenMs: turn.firstTokenMs,
      totalMs: turn.totalMs,
    }
  }
}

type RecordBatch = Required<AnalyticsBatch>

/**
 * A batch as one batch per record, each turn or search with the gap signals it gave (they share its id), and what the
 * record is for the log: its kind and id, not the reader's text.
 */
function partsOf(batch: RecordBatch): Array<{ record: string; part: RecordBatch }> {
  const signalsOf = (id: string) => batch.signals.filter((signal) => signal.id === id)
  const owned = new Set([...batch.turns, ...batch.searches].map((record) => record.id))
  const part = (records: Partial<RecordBatch>): RecordBatch => ({ turns: [], searches: [], clicks: [], signals: [], ...records })
  return [
    ...batch.turns.map((turn) => ({ record: `turn ${turn.id}`, part: part({ turns: [turn], signals: signalsOf(turn.id) }) })),
    ...batch.searches.map((search) => ({
      record: `search ${search.id}`,
      part: part({ searches: [search], signals: signalsOf(search.id) }),
    })),
    ...batch.clicks.map((click) => ({ record: `click ${click.id}`, part: part({ clicks: [click] }) })),
    // Ratings down of answers stored earlier: their signals stand alone.
    ...batch.signals
      .filter((signal) => !owned.has(signal.id))
      .map((signal) => ({ record: `signal ${signal.id}`, part: part({ signals: [signal] }) })),
  ]
}

/**
 * An answer that tells of a gap in the docs: it declined, or it ended citing nothing. A cut-off or failed answer
 * is no evidence either way unless it already declined.
 */
function isGapSignal(turn: TurnInput): boolean {
  if (!turn.response.trim()) return false
  return isDecline(turn.response) || (turn.complete && turn.resolution === 'unanswered')
}

function signalOf(turn: TurnRecord, kind: GapSignalRecord['kind']): GapSignalRecord {
  return {
    id: turn.id,
    projectId: turn.projectId,
    at: turn.askedAt,
    kind,
    query: cleanLine(turn.query, 1000),
    terms: questionTerms(turn.query),
    sections: turn.sources.slice(0, 3),
    pageUrl: turn.pageUrl,
    gapId: null,
  }
}

function searchRecord(input: SearchInput, ids: IdSource): SearchRecord | null {
  const query = normalizeQuery(input.query)
  if (!query) return null
  return {
    id: ids('search'),
    projectId: input.projectId,
    at: input.at,
    query,
    resultCount: input.resultCount === null ? null : Math.max(0, Math.trunc(input.resultCount)),
    topScore: input.topScore,
    caller: input.caller,
    origin: input.origin,
  }
}
