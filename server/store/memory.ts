import type { AgentEvent } from '../../shared/agent.ts'
import { newFeedbackId } from '../ids.ts'
import type { Caller, FeedbackStatus, TimeBucket } from '../../shared/analytics.ts'
import {
  FeedbackByPageAccumulator,
  feedbackPath,
  GapCountAccumulator,
  inRange,
  SearchTermAccumulator,
  TurnSummaryAccumulator,
} from './analytics-compute.ts'
import { type CursorScope, decodeCursor, encodeCursor, isBefore } from './cursor.ts'
import { LocalCounters } from './local-counters.ts'
import type {
  CounterLimit,
  AnalyticsBatch,
  ClaimOptions,
  ClickRecord,
  DateRange,
  FeedbackEntry,
  FeedbackFilter,
  AutomationRecord,
  AutomationRunRecord,
  CodeChangeRecord,
  FeedbackRecord,
  GapListRequest,
  GapRecord,
  GapSignalRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  Page,
  PageRequest,
  RunRecord,
  SearchRecord,
  SessionRecord,
  Store,
  ThreadRecord,
  ThreadWrite,
  TurnRecord,
} from './types.ts'

const clone = <T>(value: T): T => structuredClone(value)

/** Newest first by `at`, the id breaking ties (as every adapter sorts). */
const newest =
  <T extends { id: string }>(at: (item: T) => Date) =>
  (a: T, b: T) =>
    isBefore({ at: at(a), id: a.id }, { at: at(b), id: b.id }) ? 1 : -1

/** A page of `items`, newest first, after `page.cursor`: a cursor of `scope`'s list or none. */
async function pageOf<T extends { id: string }>(
  items: T[],
  at: (item: T) => Date,
  scope: CursorScope,
  page: PageRequest,
): Promise<Page<T>> {
  const sorted = [...items].sort(newest(at))
  const after = await decodeCursor(scope, page.cursor)
  const rest = after ? sorted.filter((item) => isBefore({ at: at(item), id: item.id }, after)) : sorted
  const slice = rest.slice(0, page.limit)
  const last = slice.at(-1)
  return { items: slice.map(clone), nextCursor: rest.length > page.limit && last ? await encodeCursor(scope, at(last), last.id) : null }
}

/** The newest `limit` of `items`: the lists the server reads for itself, with no cursor (gap signals and records). */
const newestFirst = <T extends { id: string }>(items: T[], at: (item: T) => Date, limit: number): T[] =>
  [...items].sort(newest(at)).slice(0, limit).map(clone)

/** In-process store for tests and single-process use; JavaScript's single thread makes each call atomic. */
export class MemoryStore implements Store {
  readonly kind = 'memory'
  private keys = new Map<string, KeyRecord>()
  private sessions = new Map<string, SessionRecord>()
  private counters = new LocalCounters()
  private jobs = new Map<string, JobRecord>()
  private events = new Map<string, AgentEvent[]>()
  private runs = new Map<string, RunRecord>()
  private threads = new Map<string, ThreadRecord>()
  private messages = new Map<string, MessageRecord[]>()
  private feedback = new Map<string, FeedbackRecord & { id: string; status: FeedbackStatus }>()
  private turns = new Map<string, TurnRecord>()
  private searches: SearchRecord[] = []
  private clicks: ClickRecord[] = []
  private signals = new Map<string, GapSignalRecord>()
  private gaps = new Map<string, GapRecord>()
  private automations = new Map<string, AutomationRecord>()
  private automationRuns = new Map<string, AutomationRunRecord>()
  private codeChanges = new Map<string, CodeChangeRecord>()

  async close() {}

  async insertKey(key: KeyRecord) {
    this.keys.set(key.id, clone(key))
  }
  async findKeyByHash(hash: string) {
    for (const key of this.keys.values()) if (key.hash === hash) return clone(key)
    return null
  }
  async listKeys(organization?: string) {
    return [...this.keys.values()]
      .filter((key) => !organization || key.organization === organization)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map(clone)
  }
  async revokeKey(id: string, at: Date) {
    const key = this.keys.get(id)
    if (!key || key.revokedAt) return false
    key.revokedAt = at
    return true
  }
  async ping() {}
  async countKeys() {
    return this.keys.size
  }

  async insertSession(session: SessionRecord) {
    this.sessions.set(session.hash, clone(session))
  }
  async findSession(hash: string) {
    const session = this.sessions.get(hash)
    return session ? clone(session) : null
  }
  async deleteSession(hash: string) {
    return this.sessions.delete(hash)
  }
  async deleteExpiredSessions(now: Date) {
    let count = 0
    for (const [hash, session] of this.sessions) {
      if (session.expiresAt.getTime() < now.getTime()) {
        this.sessions.delete(hash)
        count++
      }
    }
    return count
  }

  async admit(counters: CounterLimit[], now: Date) {
    return this.counters.admit(counters, now)
  }

  async insertJob(job: JobRecord) {
    this.jobs.set(job.id, clone(job))
  }
  async getJob(projectId: string, id: string) {
    const job = this.jobs.get(id)
    return job && job.projectId === projectId ? clone(job) : null
  }
  async updateJob(id: string, patch: Partial<JobRecord>, options: { ifStatusIn?: JobRecord['status'][] } = {}) {
    const job = this.jobs.get(id)
    if (!job) return null
    if (options.ifStatusIn && !options.ifStatusIn.includes(job.status)) return null
    Object.assign(job, clone(patch))
    return clone(job)
  }
  async listJobs(projectId: string, page: PageRequest) {
    const jobs = [...this.jobs.values()].filter((job) => job.projectId === projectId)
    return pageOf(jobs, (job) => job.createdAt, { list: 'jobs', projectId }, page)
  }
  async appendJobEvent(jobId: string, event: AgentEvent) {
    const list = this.events.get(jobId) ?? []
    list.push(clone(event))
    this.events.set(jobId, list)
  }
  async listJobEvents(jobId: string, { after = 0 }: { after?: number } = {}) {
    return clone((this.events.get(jobId) ?? []).slice(after))
  }

  async enqueueRun(run: Parameters<Store['enqueueRun']>[0]) {
    return clone(this.enqueue(run))
  }
  /** Synchronous, so that startAutomationRun's claim, job and run happen with nothing in between. */
  private enqueue(run: Parameters<Store['enqueueRun']>[0]): RunRecord {
    const seq = [...this.runs.values()].filter((other) => other.jobId === run.jobId).length + 1
    const record: RunRecord = {
      ...run,
      seq,
      status: 'queued',
      attempts: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      finishedAt: null,
      error: null,
    }
    this.runs.set(record.id, record)
    return record
  }
  async claimRun({ owner, leaseMs, now }: ClaimOptions) {
    const claimable = (run: RunRecord) =>
      run.status === 'queued' || (run.status === 'running' && (run.leaseExpiresAt?.getTime() ?? 0) <= now.getTime())
    const open = (run: RunRecord) => run.status === 'queued' || run.status === 'running'
    const all = [...this.runs.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.seq - b.seq)
    const run = all.find(
      (candidate) =>
        claimable(candidate) && !all.some((other) => other.jobId === candidate.jobId && other.seq < candidate.seq && open(other)),
    )
    if (!run) return null
    run.status = 'running'
    run.leaseOwner = owner
    run.leaseExpiresAt = new Date(now.getTime() + leaseMs)
    run.attempts += 1
    return clone(run)
  }
  async renewLease(runId: string, owner: string, leaseMs: number, now: Date) {
    const run = this.runs.get(runId)
    if (run?.status !== 'running' || run.leaseOwner !== owner) return false
    run.leaseExpiresAt = new Date(now.getTime() + leaseMs)
    return true
  }
  async finishRun(runId: string, owner: string, status: 'done' | 'failed', error: string | null = null) {
    const run = this.runs.get(runId)
    if (run?.status !== 'running' || run.leaseOwner !== owner) return false
    run.status = status
    run.error = error
    run.finishedAt = new Date()
    run.leaseExpiresAt = null
    return true
  }
  async cancelRuns(jobId: string) {
    let count = 0
    for (const run of this.runs.values()) {
      if (run.jobId === jobId && (run.status === 'queued' || run.status === 'running')) {
        run.status = 'cancelled'
        run.finishedAt = new Date()
        count++
      }
    }
    return count
  }
  async countOpenRuns(jobId: string) {
    return [...this.runs.values()].filter((run) => run.jobId === jobId && (run.status === 'queued' || run.status === 'running')).length
  }
  async listRuns(jobId: string) {
    return [...this.runs.values()]
      .filter((run) => run.jobId === jobId)
      .sort((a, b) => a.seq - b.seq)
      .map(clone)
  }

  async createThread(thread: ThreadRecord) {
    this.threads.set(thread.id, clone(thread))
    this.messages.set(thread.id, [])
  }
  async getThread(projectId: string, id: string) {
    const thread = this.threads.get(id)
    return thread && thread.projectId === projectId ? clone(thread) : null
  }
  async appendMessages(threadId: string, messages: MessageRecord[], at: Date) {
    const thread = this.threads.get(threadId)
    if (!thread) throw new Error(`no thread ${threadId}`)
    this.messages.get(threadId)!.push(...messages.map(clone))
    thread.messageCount += messages.length
    thread.updatedAt = at
  }
  async saveThreads(writes: ThreadWrite[]) {
    for (const { thread, messages, at } of writes) {
      if (!this.threads.has(thread.id)) await this.createThread(thread)
      await this.appendMessages(thread.id, messages, at)
    }
  }
  async listThreads(projectId: string, page: PageRequest) {
    const threads = [...this.threads.values()].filter((thread) => thread.projectId === projectId)
    return pageOf(threads, (thread) => thread.updatedAt, { list: 'threads', projectId }, page)
  }
  async listMessages(threadId: string) {
    return (this.messages.get(threadId) ?? []).map((message) => {
      const feedback = this.feedback.get(`${threadId}:${message.id}`)
      return {
        ...clone(message),
        ...(feedback ? { feedback: { rating: feedback.rating, ...(feedback.comment ? { comment: feedback.comment } : {}) } } : {}),
      }
    })
  }
  async putFeedback(feedback: FeedbackRecord) {
    const exists = (this.messages.get(feedback.threadId) ?? []).some((message) => message.id === feedback.messageId)
    if (!exists) return false
    const key = `${feedback.threadId}:${feedback.messageId}`
    // A second rating replaces the first but keeps its id and review status.
    const known = this.feedback.get(key)
    this.feedback.set(key, { ...clone(feedback), id: known?.id ?? newFeedbackId(), status: known?.status ?? 'pending' })
    return true
  }

  async getAutomation(projectId: string, id: string) {
    const automation = this.automations.get(`${projectId}/${id}`)
    return automation ? clone(automation) : null
  }
  async listAutomations(projectId: string) {
    return [...this.automations.values()]
      .filter((automation) => automation.projectId === projectId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(clone)
  }
  async putAutomation(automation: AutomationRecord) {
    this.automations.set(`${automation.projectId}/${automation.id}`, clone(automation))
  }
  async deleteAutomation(projectId: string, id: string) {
    return this.automations.delete(`${projectId}/${id}`)
  }
  async startAutomationRun({ run, job, prompt }: Parameters<Store['startAutomationRun']>[0]) {
    const taken = [...this.automationRuns.values()].some(
      (other) => other.projectId === run.projectId && other.automationId === run.automationId && other.key === run.key,
    )
    if (taken) return null
    this.automationRuns.set(run.id, clone(run))
    if (job) this.jobs.set(job.id, clone(job))
    this.enqueue({ id: run.id, jobId: run.jobId, projectId: run.projectId, prompt, createdAt: run.startedAt })
    return clone(run)
  }
  async getAutomationRun(projectId: string, id: string) {
    const run = this.automationRuns.get(id)
    return run && run.projectId === projectId ? clone(run) : null
  }
  async updateAutomationRun(id: string, patch: Parameters<Store['updateAutomationRun']>[1]) {
    const run = this.automationRuns.get(id)
    if (!run) return null
    Object.assign(run, clone(patch))
    return clone(run)
  }
  async listAutomationRuns(projectId: string, automationId: string, page: PageRequest) {
    const runs = [...this.automationRuns.values()].filter((run) => run.projectId === projectId && run.automationId === automationId)
    return pageOf(runs, (run) => run.startedAt, { list: 'automation-runs', projectId, automationId }, page)
  }
  async recordCodeChange(change: CodeChangeRecord) {
    const key = `${change.projectId}\u0000${change.repository}\u0000${change.kind}\u0000${change.ref}`
    if (this.codeChanges.has(key)) return false
    this.codeChanges.set(key, clone(change))
    return true
  }
  async listCodeChanges(projectId: string, { after, until, limit }: { after: Date; until: Date; limit: number }) {
    return [...this.codeChanges.values()]
      .filter(
        (change) =>
          change.projectId === projectId && change.receivedAt.getTime() > after.getTime() && change.receivedAt.getTime() <= until.getTime(),
      )
      .sort((a, b) => a.receivedAt.getTime() - b.receivedAt.getTime())
      .slice(0, limit)
      .map(clone)
  }
  // Analytics -----------------------------------------------------------------------------------------------

  async recordAnalytics(batch: AnalyticsBatch) {
    for (const turn of batch.turns ?? []) this.turns.set(turn.id, clone(turn))
    this.searches.push(...(batch.searches ?? []).map(clone))
    this.clicks.push(...(batch.clicks ?? []).map(clone))
    for (const signal of batch.signals ?? []) if (!this.signals.has(signal.id)) this.signals.set(signal.id, clone(signal))
  }
  async getTurn(projectId: string, id: string) {
    const turn = this.turns.get(id)
    return turn && turn.projectId === projectId ? clone(turn) : null
  }
  async listTurns(projectId: string, range: DateRange, page: PageRequest) {
    const turns = [...this.turns.values()].filter((turn) => turn.projectId === projectId && inRange(turn.askedAt, range))
    const listed = await pageOf(turns, (turn) => turn.askedAt, { list: 'turns', projectId }, page)
    return {
      nextCursor: listed.nextCursor,
      items: listed.items.map((turn) => {
        const feedback = this.feedback.get(`${turn.threadId}:${turn.id}`)
        return { ...turn, feedback: feedback ? { rating: feedback.rating, comment: feedback.comment ?? null } : null }
      }),
    }
  }
  async summarizeTurns(projectId: string, range: DateRange, bucket: TimeBucket) {
    const summary = new TurnSummaryAccumulator(bucket)
    for (const turn of this.turns.values()) if (turn.projectId === projectId && inRange(turn.askedAt, range)) summary.addTurn(turn)
    for (const entry of this.feedbackEntries(projectId, { range })) summary.addRating(entry.rating)
    return summary.result()
  }
  async countCallers(projectId: string, range: DateRange) {
    const counts: Record<Caller, number> = { web: 0, api: 0, other: 0 }
    for (const turn of this.turns.values()) if (turn.projectId === projectId && inRange(turn.askedAt, range)) counts[turn.caller]++
    for (const search of this.searches) {
      if (search.projectId === projectId && search.caller === 'other' && inRange(search.at, range)) counts.other++
    }
    return counts
  }

  private feedbackEntries(projectId: string, filter: FeedbackFilter): FeedbackEntry[] {
    const entries: FeedbackEntry[] = []
    for (const feedback of this.feedback.values()) {
      const thread = this.threads.get(feedback.threadId)
      if (thread?.projectId !== projectId || !inRange(feedback.createdAt, filter.range)) continue
      if (filter.status && feedback.status !== filter.status) continue
      entries.push({ ...clone(feedback), projectId, path: feedbackPath(this.turns.get(feedback.messageId) ?? null) })
    }
    return entries
  }
  async listFeedback(projectId: string, filter: FeedbackFilter, page: PageRequest) {
    return pageOf(this.feedbackEntries(projectId, filter), (entry) => entry.createdAt, { list: 'feedback', projectId }, page)
  }
  async feedbackByPage(projectId: string, filter: FeedbackFilter, limit: number) {
    const pages = new FeedbackByPageAccumulator()
    for (const entry of this.feedbackEntries(projectId, filter)) pages.add(entry)
    return pages.result(limit)
  }
  async setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus) {
    for (const feedback of this.feedback.values()) {
      if (feedback.id !== id || this.threads.get(feedback.threadId)?.projectId !== projectId) continue
      feedback.status = status
      return { ...clone(feedback), projectId, path: feedbackPath(this.turns.get(feedback.messageId) ?? null) }
    }
    return null
  }

  async searchTerms(projectId: string, range: DateRange, page: PageRequest) {
    const terms = new SearchTermAccumulator()
    for (const search of this.searches) if (search.projectId === projectId && inRange(search.at, range)) terms.addSearch(search)
    for (const click of this.clicks) if (click.projectId === projectId && inRange(click.at, range)) terms.addClick(click)
    return terms.page({ list: 'search-terms', projectId }, page)
  }

  async listUnassignedSignals(projectId: string, limit: number) {
    return [...this.signals.values()]
      .filter((signal) => signal.projectId === projectId && signal.gapId === null)
      .sort((a, b) => (isBefore({ at: a.at, id: a.id }, { at: b.at, id: b.id }) ? -1 : 1))
      .slice(0, limit)
      .map(clone)
  }
  async assignSignals(gapId: string, signalIds: string[]) {
    for (const id of signalIds) {
      const signal = this.signals.get(id)
      if (signal && signal.gapId === null) signal.gapId = gapId
    }
  }
  async listGapSignals(projectId: string, gapId: string, range: DateRange, limit: number) {
    const signals = [...this.signals.values()].filter(
      (signal) => signal.projectId === projectId && signal.gapId === gapId && inRange(signal.at, range),
    )
    return newestFirst(signals, (signal) => signal.at, limit)
  }
  async insertGap(gap: GapRecord) {
    this.gaps.set(gap.id, clone(gap))
  }
  async getGap(projectId: string, id: string) {
    const gap = this.gaps.get(id)
    return gap && gap.projectId === projectId ? clone(gap) : null
  }
  async updateGap(id: string, patch: Partial<GapRecord>, options: { ifStatusIn?: GapRecord['status'][] } = {}) {
    const gap = this.gaps.get(id)
    if (!gap || (options.ifStatusIn && !options.ifStatusIn.includes(gap.status))) return null
    Object.assign(gap, clone(patch))
    return clone(gap)
  }
  async listGapRecords(projectId: string, options: { statuses?: GapRecord['status'][]; limit: number }) {
    const gaps = [...this.gaps.values()].filter(
      (gap) => gap.projectId === projectId && (!options.statuses || options.statuses.includes(gap.status)),
    )
    return newestFirst(gaps, (gap) => gap.lastSeenAt, options.limit)
  }
  async listGaps(projectId: string, request: GapListRequest) {
    const counts = new GapCountAccumulator()
    for (const signal of this.signals.values()) if (signal.projectId === projectId && inRange(signal.at, request.range)) counts.add(signal)
    return counts.page({ list: 'gaps', projectId }, request, (id) => this.getGap(projectId, id))
  }

  async purgeAnalytics(before: Date) {
    let deleted = 0
    const old = (at: Date) => at.getTime() < before.getTime()
    for (const [id, turn] of this.turns) if (old(turn.askedAt) && this.turns.delete(id)) deleted++
    const searches = this.searches.length + this.clicks.length
    this.searches = this.searches.filter((search) => !old(search.at))
    this.clicks = this.clicks.filter((click) => !old(click.at))
    deleted += searches - this.searches.length - this.clicks.length
    for (const [id, signal] of this.signals) if (old(signal.at) && this.signals.delete(id)) deleted++
    for (const [id, thread] of this.threads) {
      if (!old(thread.updatedAt)) continue
      this.threads.delete(id)
      this.messages.delete(id)
      for (const key of this.feedback.keys()) if (key.startsWith(`${id}:`)) this.feedback.delete(key)
      deleted++
    }
    const inUse = new Set([...this.signals.values()].map((signal) => signal.gapId))
    for (const [id, gap] of this.gaps) {
      if ((gap.status === 'open' || gap.status === 'dismissed') && !inUse.has(id) && old(gap.lastSeenAt) && this.gaps.delete(id)) deleted++
    }
    return deleted
  }
}
