import type { Caller, FeedbackStatus, GapStatus, TimeBucket } from '../../shared/analytics.ts'
import { newFeedbackId } from '../ids.ts'
import {
  FeedbackByPageAccumulator,
  feedbackPath,
  GapCountAccumulator,
  SearchTermAccumulator,
  TurnSummaryAccumulator,
} from './analytics-compute.ts'
import type {
  AnalyticsBatch,
  AnalyticsStore,
  ClickRecord,
  DateRange,
  FeedbackEntry,
  FeedbackFilter,
  GapListRequest,
  GapRecord,
  GapSignalRecord,
  SearchRecord,
  TurnRecord,
  TurnWithFeedback,
} from './analytics-types.ts'
import { decodeCursor, encodeCursor } from './cursor.ts'
import type { FeedbackRecord, Page, PageRequest, ThreadRecord } from './types.ts'
import { CONFLICT, type KvAtomic, type KvEntry, type KvKey, KvRecords, ms, retry } from './denokv-records.ts'

/** Feedback as Deno KV keeps it: the record, its id, review status and project. */
export type StoredFeedback = FeedbackRecord & { id?: string; status?: FeedbackStatus; projectId?: string }

/**
 * The analytics half of the Deno KV store (DenoKvStore extends it). Rows are keyed by project and time, so a date
 * range is one ordered scan; aggregates are made in JavaScript while scanning (analytics-compute.ts).
 *
 * Keys: `a_turn/<project>/<ms>/<id>`, `a_turn_key/<id>`, `a_search/<project>/<ms>/<id>`, `a_click/<project>/<ms>/<id>`,
 * `a_signal/<project>/<ms>/<id>` (+ `a_signal_key/<id>`, `a_signal_free/<project>/<ms>/<id>` while unassigned,
 * `a_gap_signal/<gap>/<ms>/<id>` once in a gap), `a_gap/<id>` (+ `a_gap_seen/<project>/<lastSeen ms>/<id>`),
 * `a_feedback_id/<id>` and `a_feedback_at/<project>/<ms>/<id>` beside the thread's `feedback/<thread>/<message>`.
 */
export class DenoKvAnalyticsStore extends KvRecords implements AnalyticsStore {
  // Recording ----------------------------------------------------------------------------------------------

  async recordAnalytics(batch: AnalyticsBatch) {
    const ops: Array<(atomic: KvAtomic) => void> = []
    for (const turn of batch.turns ?? []) {
      const response = await this.putLarge(['turn_response', turn.id], turn.response)
      ops.push((a) =>
        a
          .set(['a_turn', turn.projectId, ms(turn.askedAt), turn.id], { ...turn, response })
          .set(['a_turn_key', turn.id], [turn.projectId, ms(turn.askedAt)]),
      )
    }
    for (const search of batch.searches ?? []) ops.push((a) => a.set(['a_search', search.projectId, ms(search.at), search.id], search))
    for (const click of batch.clicks ?? []) ops.push((a) => a.set(['a_click', click.projectId, ms(click.at), click.id], click))
    await this.commitInChunks(ops)
    // A signal is written once: the first reason a question went unanswered is the one kept.
    for (const signal of batch.signals ?? []) {
      const free: KvKey = ['a_signal_free', signal.projectId, ms(signal.at), signal.id]
      await this.kv
        .atomic()
        .check({ key: ['a_signal_key', signal.id], versionstamp: null })
        .set(['a_signal', signal.projectId, ms(signal.at), signal.id], signal)
        .set(['a_signal_key', signal.id], [signal.projectId, ms(signal.at)])
        .set(signal.gapId ? ['a_gap_signal', signal.gapId, ms(signal.at), signal.id] : free, signal.id)
        .commit()
    }
  }

  private async readTurn(stored: TurnRecord): Promise<TurnRecord> {
    return { ...stored, response: await this.getLarge<string>(['turn_response', stored.id], stored.response) }
  }

  async getTurn(projectId: string, id: string) {
    const key = (await this.kv.get<[string, number]>(['a_turn_key', id])).value
    if (!key || key[0] !== projectId) return null
    const turn = (await this.kv.get<TurnRecord>(['a_turn', key[0], key[1], id])).value
    return turn ? this.readTurn(turn) : null
  }

  async listTurns(projectId: string, range: DateRange, page: PageRequest): Promise<Page<TurnWithFeedback>> {
    const scope = { list: 'turns', projectId } as const
    const after = await decodeCursor(scope, page.cursor)
    const prefix = ['a_turn', projectId]
    const end = after && ms(after.at) < ms(range.to) ? [...prefix, ms(after.at), after.id] : undefined
    const items: TurnWithFeedback[] = []
    let more = false
    for await (const entry of this.scan<TurnRecord>(prefix, range, { reverse: true, end })) {
      if (items.length === page.limit) {
        more = true
        break
      }
      const turn = await this.readTurn(entry.value!)
      const feedback = (await this.kv.get<StoredFeedback>(['feedback', turn.threadId, turn.id])).value
      items.push({ ...turn, feedback: feedback ? { rating: feedback.rating, comment: feedback.comment ?? null } : null })
    }
    const last = items.at(-1)
    return { items, nextCursor: more && last ? await encodeCursor(scope, last.askedAt, last.id) : null }
  }

  async summarizeTurns(projectId: string, range: DateRange, bucket: TimeBucket) {
    const summary = new TurnSummaryAccumulator(bucket)
    for await (const entry of this.scan<TurnRecord>(['a_turn', projectId], range)) summary.addTurn(entry.value!)
    // Only the rating is needed: the feedback record itself, without the turn feedbackInRange reads for its page.
    for await (const entry of this.scan<[string, string]>(['a_feedback_at', projectId], range)) {
      const feedback = (await this.kv.get<StoredFeedback>(['feedback', ...entry.value!])).value
      if (feedback && ms(feedback.createdAt) === entry.key[2]) summary.addRating(feedback.rating)
    }
    return summary.result()
  }

  async countCallers(projectId: string, range: DateRange) {
    const counts: Record<Caller, number> = { web: 0, api: 0, other: 0 }
    for await (const entry of this.scan<TurnRecord>(['a_turn', projectId], range)) counts[entry.value!.caller]++
    for await (const entry of this.scan<SearchRecord>(['a_search', projectId], range)) if (entry.value!.caller === 'other') counts.other++
    return counts
  }

  // Feedback -----------------------------------------------------------------------------------------------

  private async feedbackEntry(ref: [string, string]): Promise<FeedbackEntry | null> {
    const feedback = (await this.kv.get<StoredFeedback>(['feedback', ...ref])).value
    if (!feedback?.id) return null
    const key = (await this.kv.get<[string, number]>(['a_turn_key', feedback.messageId])).value
    const turn = key ? (await this.kv.get<TurnRecord>(['a_turn', key[0], key[1], feedback.messageId])).value : null
    return {
      ...feedback,
      id: feedback.id,
      status: feedback.status ?? 'pending',
      projectId: feedback.projectId ?? '',
      path: feedbackPath(turn),
    }
  }

  private async *feedbackInRange(projectId: string, filter: FeedbackFilter, end?: KvKey): AsyncIterable<FeedbackEntry> {
    for await (const entry of this.scan<[string, string]>(['a_feedback_at', projectId], filter.range, { reverse: true, end })) {
      const feedback = await this.feedbackEntry(entry.value!)
      // The index may lag a re-rating (its old time key is removed in the same commit, but be strict anyway).
      if (!feedback || ms(feedback.createdAt) !== entry.key[2] || (filter.status && feedback.status !== filter.status)) continue
      yield feedback
    }
  }

  async listFeedback(projectId: string, filter: FeedbackFilter, page: PageRequest) {
    const scope = { list: 'feedback', projectId } as const
    const after = await decodeCursor(scope, page.cursor)
    const end = after && ms(after.at) < ms(filter.range.to) ? ['a_feedback_at', projectId, ms(after.at), after.id] : undefined
    const items: FeedbackEntry[] = []
    let more = false
    for await (const entry of this.feedbackInRange(projectId, filter, end)) {
      if (items.length === page.limit) {
        more = true
        break
      }
      items.push(entry)
    }
    const last = items.at(-1)
    return { items, nextCursor: more && last ? await encodeCursor(scope, last.createdAt, last.id) : null }
  }

  async feedbackByPage(projectId: string, filter: FeedbackFilter, limit: number) {
    const pages = new FeedbackByPageAccumulator()
    for await (const entry of this.feedbackInRange(projectId, filter)) pages.add(entry)
    return pages.result(limit)
  }

  async setFeedbackStatus(projectId: string, id: string, status: FeedbackStatus) {
    const ref = (await this.kv.get<[string, string]>(['a_feedback_id', id])).value
    if (!ref) return null
    const updated = await retry(async () => {
      const entry = await this.kv.get<StoredFeedback>(['feedback', ...ref])
      if (!entry.value || entry.value.projectId !== projectId || entry.value.id !== id) return false
      const ok = (
        await this.kv
          .atomic()
          .check(entry)
          .set(['feedback', ...ref], { ...entry.value, status })
          .commit()
      ).ok
      return ok ? true : CONFLICT
    })
    return updated ? this.feedbackEntry(ref) : null
  }

  /** Keeps the feedback's id and review status across re-ratings, and its indexes by id and by time. */
  protected async indexFeedback(feedback: FeedbackRecord, projectId: string) {
    const key = ['feedback', feedback.threadId, feedback.messageId]
    await retry(async () => {
      const entry = await this.kv.get<StoredFeedback>(key)
      const known = entry.value
      const id = known?.id ?? newFeedbackId()
      const stored: StoredFeedback = { ...feedback, id, status: known?.status ?? 'pending', projectId }
      const op = this.kv
        .atomic()
        .check(entry)
        .set(key, stored)
        .set(['a_feedback_id', id], [feedback.threadId, feedback.messageId])
        .set(['a_feedback_at', projectId, ms(feedback.createdAt), id], [feedback.threadId, feedback.messageId])
      if (known?.id && known.projectId && ms(known.createdAt) !== ms(feedback.createdAt)) {
        op.delete(['a_feedback_at', known.projectId, ms(known.createdAt), known.id])
      }
      return (await op.commit()).ok ? true : CONFLICT
    })
  }

  // Searches -----------------------------------------------------------------------------------------------

  async searchTerms(projectId: string, range: DateRange, page: PageRequest) {
    const terms = new SearchTermAccumulator()
    for await (const entry of this.scan<SearchRecord>(['a_search', projectId], range)) terms.addSearch(entry.value!)
    for await (const entry of this.scan<ClickRecord>(['a_click', projectId], range)) terms.addClick(entry.value!)
    return terms.page({ list: 'search-terms', projectId }, page)
  }

  // Gaps ---------------------------------------------------------------------------------------------------

  private async signal(id: string): Promise<KvEntry<GapSignalRecord> | null> {
    const key = (await this.kv.get<[string, number]>(['a_signal_key', id])).value
    return key ? this.kv.get<GapSignalRecord>(['a_signal', key[0], key[1], id]) : null
  }

  async listUnassignedSignals(projectId: string, limit: number) {
    const signals: GapSignalRecord[] = []
    for await (const entry of this.kv.list<string>({ prefix: ['a_signal_free', projectId] }, { limit })) {
      const signal = await this.signal(entry.value!)
      if (signal?.value && signal.value.gapId === null) signals.push(signal.value)
    }
    return signals
  }

  async assignSignals(gapId: string, signalIds: string[]) {
    for (const id of signalIds) {
      await retry(async () => {
        const entry = await this.signal(id)
        const signal = entry?.value
        if (!entry || !signal || signal.gapId !== null) return false
        const ok = (
          await this.kv
            .atomic()
            .check(entry)
            .set(entry.key, { ...signal, gapId })
            .delete(['a_signal_free', signal.projectId, ms(signal.at), id])
            .set(['a_gap_signal', gapId, ms(signal.at), id], id)
            .commit()
        ).ok
        return ok ? true : CONFLICT
      })
    }
  }

  async listGapSignals(projectId: string, gapId: string, range: DateRange, limit: number) {
    const signals: GapSignalRecord[] = []
    for await (const entry of this.scan<string>(['a_gap_signal', gapId], range, { reverse: true })) {
      const signal = (await this.signal(entry.value!))?.value
      if (signal && signal.projectId === projectId) signals.push(signal)
      if (signals.length === limit) break
    }
    return signals
  }

  async insertGap(gap: GapRecord) {
    await this.kv
      .atomic()
      .set(['a_gap', gap.id], gap)
      .set(['a_gap_seen', gap.projectId, ms(gap.lastSeenAt), gap.id], gap.id)
      .commit()
  }

  async getGap(projectId: string, id: string) {
    const gap = (await this.kv.get<GapRecord>(['a_gap', id])).value
    return gap && gap.projectId === projectId ? gap : null
  }

  async updateGap(
    id: string,
    patch: Partial<Omit<GapRecord, 'id' | 'projectId' | 'createdAt'>>,
    options: { ifStatusIn?: GapStatus[] } = {},
  ) {
    return retry(async () => {
      const entry = await this.kv.get<GapRecord>(['a_gap', id])
      const gap = entry.value
      if (!gap || (options.ifStatusIn && !options.ifStatusIn.includes(gap.status))) return null
      const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
      const next = { ...gap, ...defined } as GapRecord
      const op = this.kv.atomic().check(entry).set(['a_gap', id], next)
      if (ms(next.lastSeenAt) !== ms(gap.lastSeenAt)) {
        op.delete(['a_gap_seen', gap.projectId, ms(gap.lastSeenAt), id]).set(['a_gap_seen', gap.projectId, ms(next.lastSeenAt), id], id)
      }
      return (await op.commit()).ok ? next : CONFLICT
    })
  }

  async listGapRecords(projectId: string, options: { statuses?: GapStatus[]; limit: number }) {
    const gaps: GapRecord[] = []
    for await (const entry of this.kv.list<string>({ prefix: ['a_gap_seen', projectId] }, { reverse: true })) {
      const gap = await this.getGap(projectId, entry.value!)
      if (gap && (!options.statuses || options.statuses.includes(gap.status))) gaps.push(gap)
      if (gaps.length === options.limit) break
    }
    return gaps
  }

  async listGaps(projectId: string, request: GapListRequest) {
    const counts = new GapCountAccumulator()
    for await (const entry of this.scan<GapSignalRecord>(['a_signal', projectId], request.range)) counts.add(entry.value!)
    return counts.page({ list: 'gaps', projectId }, request, (id) => this.getGap(projectId, id))
  }

  // Retention ----------------------------------------------------------------------------------------------

  async purgeAnalytics(before: Date) {
    const old = (at: Date) => ms(at) < ms(before)
    let deleted = 0
    const drop = async (keys: KvKey[]) => {
      await this.commitInChunks(keys.map((key) => (a) => a.delete(key)))
    }
    for await (const entry of this.kv.list<TurnRecord>({ prefix: ['a_turn'] })) {
      if (!old(entry.value!.askedAt)) continue
      const parts: KvKey[] = []
      for await (const part of this.kv.list({ prefix: ['part', 'turn_response', entry.value!.id] })) parts.push(part.key)
      await drop([entry.key, ['a_turn_key', entry.value!.id], ...parts])
      deleted++
    }
    for (const prefix of ['a_search', 'a_click']) {
      for await (const entry of this.kv.list<{ at: Date }>({ prefix: [prefix] })) {
        if (!old(entry.value!.at)) continue
        await this.kv.delete(entry.key)
        deleted++
      }
    }
    const gapsInUse = new Set<string>()
    for await (const entry of this.kv.list<GapSignalRecord>({ prefix: ['a_signal'] })) {
      const signal = entry.value!
      if (!old(signal.at)) {
        if (signal.gapId) gapsInUse.add(signal.gapId)
        continue
      }
      await drop([
        entry.key,
        ['a_signal_key', signal.id],
        ['a_signal_free', signal.projectId, ms(signal.at), signal.id],
        ...(signal.gapId ? [['a_gap_signal', signal.gapId, ms(signal.at), signal.id] as KvKey] : []),
      ])
      deleted++
    }
    for await (const entry of this.kv.list<GapRecord>({ prefix: ['a_gap'] })) {
      const gap = entry.value!
      if (!['open', 'dismissed'].includes(gap.status) || gapsInUse.has(gap.id) || !old(gap.lastSeenAt)) continue
      await drop([entry.key, ['a_gap_seen', gap.projectId, ms(gap.lastSeenAt), gap.id]])
      deleted++
    }
    for await (const entry of this.kv.list<ThreadRecord>({ prefix: ['thread'] })) {
      const thread = entry.value!
      if (!old(thread.updatedAt)) continue
      const keys: KvKey[] = [entry.key, ['thread_by_project', thread.projectId, ms(thread.updatedAt), thread.id]]
      for (const prefix of ['message', 'message_index']) {
        for await (const message of this.kv.list({ prefix: [prefix, thread.id] })) keys.push(message.key)
      }
      for await (const part of this.kv.list({ prefix: ['part', 'message_content', thread.id] })) keys.push(part.key)
      for await (const feedback of this.kv.list<StoredFeedback>({ prefix: ['feedback', thread.id] })) {
        const value = feedback.value!
        keys.push(feedback.key)
        if (value.id) keys.push(['a_feedback_id', value.id], ['a_feedback_at', value.projectId ?? '', ms(value.createdAt), value.id])
      }
      await drop(keys)
      deleted++
    }
    return deleted
  }
}
