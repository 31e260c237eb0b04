import type { AgentEvent } from '../../shared/agent.ts'
import { type CursorScope, decodeCursor, encodeCursor } from './cursor.ts'
import { DenoKvAnalyticsStore } from './denokv-analytics.ts'
import { CONFLICT, type Kv, type KvEntry, type KvKey, type KvSelector, ms, retry } from './denokv-records.ts'
import type {
  Admission,
  ClaimOptions,
  CounterLimit,
  AutomationRecord,
  AutomationRunRecord,
  CodeChangeRecord,
  FeedbackRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  Page,
  PageRequest,
  RunRecord,
  SessionRecord,
  Store,
  ThreadRecord,
  ThreadWrite,
} from './types.ts'

/** Keys stored before scopes existed are `write` keys, as they were. */
const withScope = (key: KeyRecord): KeyRecord => (key.scope ? key : { ...key, scope: 'write' })

/** Store on Deno KV: local (SQLite-backed) under `deno run --unstable-kv`, or Deno Deploy's global KV. */
export class DenoKvStore extends DenoKvAnalyticsStore implements Store {
  readonly kind = 'denokv'

  async close() {
    this.kv.close()
  }

  // Keys ---------------------------------------------------------------------------------------------------

  async insertKey(key: KeyRecord) {
    const result = await this.kv
      .atomic()
      .check({ key: ['key_hash', key.hash], versionstamp: null })
      .set(['key', key.id], key)
      .set(['key_hash', key.hash], key.id)
      .commit()
    if (!result.ok) throw new Error('a key with this hash exists')
  }
  async findKeyByHash(hash: string) {
    const id = (await this.kv.get<string>(['key_hash', hash])).value
    if (!id) return null
    const key = (await this.kv.get<KeyRecord>(['key', id])).value
    return key ? withScope(key) : null
  }
  async listKeys(organization?: string) {
    const keys: KeyRecord[] = []
    for await (const entry of this.kv.list<KeyRecord>({ prefix: ['key'] })) {
      if (entry.value && (!organization || entry.value.organization === organization)) keys.push(withScope(entry.value))
    }
    return keys.sort((a, b) => ms(a.createdAt) - ms(b.createdAt))
  }
  async revokeKey(id: string, at: Date) {
    return retry(async () => {
      const entry = await this.kv.get<KeyRecord>(['key', id])
      if (!entry.value || entry.value.revokedAt) return false
      const ok = (
        await this.kv
          .atomic()
          .check(entry)
          .set(['key', id], { ...entry.value, revokedAt: at })
          .commit()
      ).ok
      return ok ? true : CONFLICT
    })
  }
  async ping() {
    await this.kv.get(['ping'])
  }
  async countKeys() {
    let count = 0
    for await (const _ of this.kv.list({ prefix: ['key'] })) count++
    return count
  }

  // Console sessions ---------------------------------------------------------------------------------------

  async insertSession(session: SessionRecord) {
    // KV drops the entry itself once it expires; deleteExpiredSessions has nothing left to do.
    await this.kv.set(['session', session.hash], session, { expireIn: Math.max(1000, ms(session.expiresAt) - Date.now()) })
  }
  async findSession(hash: string) {
    return (await this.kv.get<SessionRecord>(['session', hash])).value ?? null
  }
  async deleteSession(hash: string) {
    const entry = await this.kv.get<SessionRecord>(['session', hash])
    if (!entry.value) return false
    await this.kv.delete(['session', hash])
    return true
  }
  async deleteExpiredSessions(now: Date) {
    let count = 0
    for await (const entry of this.kv.list<SessionRecord>({ prefix: ['session'] })) {
      if (entry.value && ms(entry.value.expiresAt) < ms(now)) {
        await this.kv.delete(entry.key)
        count++
      }
    }
    return count
  }

  // Counters -----------------------------------------------------------------------------------------------

  async admit(counters: CounterLimit[], now: Date): Promise<Admission> {
    if (counters.length === 0) return { admitted: true, counts: [] }
    return retry(async () => {
      // getMany reads one consistent snapshot; the commit checks that none of the counters moved since.
      const entries: KvEntry<{ value: number; expiresAt: number }>[] = []
      for (let i = 0; i < counters.length; i += 10) {
        entries.push(
          ...(await this.kv.getMany<{ value: number; expiresAt: number }[]>(counters.slice(i, i + 10).map((c) => ['counter', c.key]))),
        )
      }
      const current = entries.map((entry) => (entry.value && entry.value.expiresAt > ms(now) ? entry.value.value : 0))
      if (counters.some((counter, i) => current[i]! >= counter.limit)) return { admitted: false, counts: current }
      let atomic = this.kv.atomic()
      counters.forEach((counter, i) => {
        const live = entries[i]!.value && entries[i]!.value!.expiresAt > ms(now)
        const expiresAt = live ? entries[i]!.value!.expiresAt : ms(counter.expiresAt)
        atomic = atomic
          .check(entries[i]!)
          .set(['counter', counter.key], { value: current[i]! + 1, expiresAt }, { expireIn: Math.max(1000, expiresAt - ms(now)) })
      })
      return (await atomic.commit()).ok ? { admitted: true, counts: current.map((value) => value + 1) } : CONFLICT
    })
  }

  // Jobs ---------------------------------------------------------------------------------------------------

  private async readJob(entry: KvEntry<JobRecord>): Promise<JobRecord | null> {
    if (!entry.value) return null
    const job = entry.value
    job.conversation = await this.getLarge<unknown[]>(['conversation', job.id], entry.value.conversation)
    return job
  }

  async insertJob(job: JobRecord) {
    const stored = { ...job, conversation: await this.putLarge(['conversation', job.id], job.conversation) }
    await this.kv
      .atomic()
      .set(['job', job.id], stored)
      .set(['job_by_project', job.projectId, ms(job.createdAt), job.id], job.id)
      .commit()
  }
  async getJob(projectId: string, id: string) {
    const job = await this.readJob(await this.kv.get<JobRecord>(['job', id]))
    return job && job.projectId === projectId ? job : null
  }
  async updateJob(id: string, patch: Partial<JobRecord>, options: { ifStatusIn?: JobRecord['status'][] } = {}) {
    const conversation = patch.conversation ? await this.putLarge(['conversation', id], patch.conversation) : undefined
    return retry(async () => {
      const entry = await this.kv.get<JobRecord>(['job', id])
      if (!entry.value) return null
      if (options.ifStatusIn && !options.ifStatusIn.includes(entry.value.status)) return null
      // `conversation` is stored as a reference to its parts; readJob resolves it back to the array.
      const next = { ...entry.value, ...patch, ...(conversation !== undefined ? { conversation } : {}) } as JobRecord
      const ok = (await this.kv.atomic().check(entry).set(['job', id], next).commit()).ok
      return ok ? this.readJob({ ...entry, value: next }) : CONFLICT
    })
  }
  async listJobs(projectId: string, page: PageRequest): Promise<Page<JobRecord>> {
    return this.pageOf(['job_by_project', projectId], { list: 'jobs', projectId }, page, async (id) =>
      this.readJob(await this.kv.get<JobRecord>(['job', id])),
    )
  }

  /** Newest-first page over an index `[...prefix, millis, id] → id`. */
  private async pageIds(prefix: KvKey, scope: CursorScope, page: PageRequest): Promise<Page<string>> {
    const after = await decodeCursor(scope, page.cursor)
    const selector: KvSelector = after ? { prefix, end: [...prefix, ms(after.at), after.id] } : { prefix }
    const entries: KvEntry<string>[] = []
    for await (const entry of this.kv.list<string>(selector, { reverse: true, limit: page.limit + 1 })) entries.push(entry)
    const items = entries.slice(0, page.limit)
    const last = items.at(-1)
    const nextCursor =
      entries.length > page.limit && last ? await encodeCursor(scope, new Date(Number(last.key.at(-2))), String(last.key.at(-1))) : null
    return { items: items.map((entry) => entry.value!), nextCursor }
  }

  /** A page of an index (see pageIds) read as its records; an id whose record is gone is left out. */
  private async pageOf<T>(
    prefix: KvKey,
    scope: CursorScope,
    page: PageRequest,
    read: (id: string) => Promise<T | null | undefined>,
  ): Promise<Page<T>> {
    const ids = await this.pageIds(prefix, scope, page)
    const items: T[] = []
    for (const id of ids.items) {
      const item = await read(id)
      if (item) items.push(item)
    }
    return { items, nextCursor: ids.nextCursor }
  }

  async appendJobEvent(jobId: string, event: AgentEvent) {
    const seq = await this.incrementSequence(['event_seq', jobId])
    await this.kv.set(['event', jobId, seq], event)
  }
  async listJobEvents(jobId: string, { after = 0 }: { after?: number } = {}) {
    const events: AgentEvent[] = []
    // Skipped by count, not by sequence number: a sequence taken by a write that then failed leaves a hole.
    let skipped = 0
    for await (const entry of this.kv.list<AgentEvent>({ prefix: ['event', jobId] })) {
      if (skipped++ < after) continue
      events.push(entry.value!)
    }
    return events
  }

  private incrementSequence(key: KvKey): Promise<number> {
    return retry(async () => {
      const entry = await this.kv.get<number>(key)
      const next = (entry.value ?? 0) + 1
      return (await this.kv.atomic().check(entry).set(key, next).commit()).ok ? next : CONFLICT
    })
  }

  // Runs ---------------------------------------------------------------------------------------------------

  async enqueueRun(run: Parameters<Store['enqueueRun']>[0]) {
    const seq = await this.incrementSequence(['run_seq', run.jobId])
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
    await this.kv
      .atomic()
      .set(['run', record.id], record)
      .set(['run_by_job', run.jobId, seq], record.id)
      .set(['run_open', ms(run.createdAt), seq, record.id], record.id)
      .commit()
    return record
  }

  private async runEntry(id: string) {
    const entry = await this.kv.get<RunRecord>(['run', id])
    return { entry, run: entry.value ? entry.value : null }
  }

  private async firstOpenRunOfJob(jobId: string): Promise<string | null> {
    for await (const entry of this.kv.list<string>({ prefix: ['run_by_job', jobId] })) {
      const { run } = await this.runEntry(entry.value!)
      if (run && (run.status === 'queued' || run.status === 'running')) return run.id
    }
    return null
  }

  async claimRun({ owner, leaseMs, now }: ClaimOptions) {
    return retry<RunRecord | null>(async () => {
      for await (const open of this.kv.list<string>({ prefix: ['run_open'] })) {
        const { entry, run } = await this.runEntry(open.value!)
        if (!run) continue
        const claimable =
          run.status === 'queued' || (run.status === 'running' && (run.leaseExpiresAt ? ms(run.leaseExpiresAt) : 0) <= ms(now))
        if (!claimable || (await this.firstOpenRunOfJob(run.jobId)) !== run.id) continue
        const claimed: RunRecord = {
          ...run,
          status: 'running',
          leaseOwner: owner,
          leaseExpiresAt: new Date(ms(now) + leaseMs),
          attempts: run.attempts + 1,
        }
        const ok = (await this.kv.atomic().check(entry).set(['run', run.id], claimed).commit()).ok
        return ok ? claimed : CONFLICT
      }
      return null
    })
  }

  private updateRun(runId: string, change: (run: RunRecord) => RunRecord | null): Promise<boolean> {
    return retry(async () => {
      const { entry, run } = await this.runEntry(runId)
      const next = run ? change(run) : null
      if (!run || !next) return false
      const op = this.kv.atomic().check(entry).set(['run', runId], next)
      if (next.status !== 'queued' && next.status !== 'running') op.delete(['run_open', ms(run.createdAt), run.seq, run.id])
      return (await op.commit()).ok ? true : CONFLICT
    })
  }

  renewLease(runId: string, owner: string, leaseMs: number, now: Date) {
    return this.updateRun(runId, (run) =>
      run.status === 'running' && run.leaseOwner === owner ? { ...run, leaseExpiresAt: new Date(ms(now) + leaseMs) } : null,
    )
  }
  finishRun(runId: string, owner: string, status: 'done' | 'failed', error: string | null = null) {
    return this.updateRun(runId, (run) =>
      run.status === 'running' && run.leaseOwner === owner ? { ...run, status, error, finishedAt: new Date(), leaseExpiresAt: null } : null,
    )
  }
  async cancelRuns(jobId: string) {
    let count = 0
    for (const run of await this.listRuns(jobId)) {
      const cancelled = await this.updateRun(run.id, (current) =>
        current.status === 'queued' || current.status === 'running' ? { ...current, status: 'cancelled', finishedAt: new Date() } : null,
      )
      if (cancelled) count++
    }
    return count
  }
  async countOpenRuns(jobId: string) {
    return (await this.listRuns(jobId)).filter((run) => run.status === 'queued' || run.status === 'running').length
  }
  async listRuns(jobId: string) {
    const runs: RunRecord[] = []
    for await (const entry of this.kv.list<string>({ prefix: ['run_by_job', jobId] })) {
      const { run } = await this.runEntry(entry.value!)
      if (run) runs.push(run)
    }
    return runs
  }

  // Threads ------------------------------------------------------------------------------------------------

  async createThread(thread: ThreadRecord) {
    await this.kv
      .atomic()
      .set(['thread', thread.id], thread)
      .set(['thread_by_project', thread.projectId, ms(thread.updatedAt), thread.id], thread.id)
      .commit()
  }
  async getThread(projectId: string, id: string) {
    const thread = (await this.kv.get<ThreadRecord>(['thread', id])).value
    return thread && thread.projectId === projectId ? thread : null
  }
  async appendMessages(threadId: string, messages: MessageRecord[], at: Date) {
    // Long contents are stored as references to their parts; listMessages resolves them.
    const stored: MessageRecord[] = []
    for (const message of messages) {
      stored.push({ ...message, content: (await this.putLarge(['message_content', threadId, message.id], message.content)) as string })
    }
    await retry(async () => {
      const entry = await this.kv.get<ThreadRecord>(['thread', threadId])
      if (!entry.value) throw new Error(`no thread ${threadId}`)
      const thread = entry.value
      const first = thread.messageCount
      const op = this.kv
        .atomic()
        .check(entry)
        .set(['thread', threadId], { ...thread, messageCount: first + messages.length, updatedAt: at })
        .delete(['thread_by_project', thread.projectId, ms(thread.updatedAt), threadId])
        .set(['thread_by_project', thread.projectId, ms(at), threadId], threadId)
      stored.forEach((message, i) =>
        op.set(['message', threadId, first + i], message).set(['message_index', threadId, message.id], first + i),
      )
      return (await op.commit()).ok ? true : CONFLICT
    })
  }
  async saveThreads(writes: ThreadWrite[]) {
    for (const { thread, messages, at } of writes) {
      // Created only when missing: the check makes a second writer's create a no-op.
      await this.kv
        .atomic()
        .check({ key: ['thread', thread.id], versionstamp: null })
        .set(['thread', thread.id], thread)
        .set(['thread_by_project', thread.projectId, ms(thread.updatedAt), thread.id], thread.id)
        .commit()
      await this.appendMessages(thread.id, messages, at)
    }
  }
  async listThreads(projectId: string, page: PageRequest): Promise<Page<ThreadRecord>> {
    return this.pageOf(['thread_by_project', projectId], { list: 'threads', projectId }, page, (id) => this.getThread(projectId, id))
  }
  async listMessages(threadId: string) {
    const messages: Array<MessageRecord & { feedback?: Pick<FeedbackRecord, 'rating' | 'comment'> }> = []
    for await (const entry of this.kv.list<MessageRecord>({ prefix: ['message', threadId] })) {
      const message = entry.value!
      message.content = await this.getLarge<string>(['message_content', threadId, message.id], entry.value!.content)
      const feedback = (await this.kv.get<FeedbackRecord>(['feedback', threadId, message.id])).value
      messages.push(
        feedback
          ? { ...message, feedback: { rating: feedback.rating, ...(feedback.comment ? { comment: feedback.comment } : {}) } }
          : message,
      )
    }
    return messages
  }
  async putFeedback(feedback: FeedbackRecord) {
    const index = await this.kv.get<number>(['message_index', feedback.threadId, feedback.messageId])
    if (index.value === null) return false
    const thread = (await this.kv.get<ThreadRecord>(['thread', feedback.threadId])).value
    await this.indexFeedback(feedback, thread?.projectId ?? '')
    return true
  }

  // Automations --------------------------------------------------------------------------------------------

  async getAutomation(projectId: string, id: string) {
    return (await this.kv.get<AutomationRecord>(['automation', projectId, id])).value ?? null
  }
  async listAutomations(projectId: string) {
    const automations: AutomationRecord[] = []
    for await (const entry of this.kv.list<AutomationRecord>({ prefix: ['automation', projectId] })) {
      if (entry.value) automations.push(entry.value)
    }
    return automations.sort((a, b) => ms(a.createdAt) - ms(b.createdAt) || (a.id < b.id ? -1 : 1))
  }
  async putAutomation(automation: AutomationRecord) {
    await this.kv.set(['automation', automation.projectId, automation.id], automation)
  }
  async deleteAutomation(projectId: string, id: string) {
    const entry = await this.kv.get(['automation', projectId, id])
    if (!entry.value) return false
    await this.kv.delete(['automation', projectId, id])
    return true
  }
  async startAutomationRun({ run, job, prompt }: Parameters<Store['startAutomationRun']>[0]) {
    const claim: KvKey = ['automation_run_key', run.projectId, run.automationId, run.key]
    if ((await this.kv.get(claim)).value !== null) return null
    // A follow-up takes the job's next number now; when the claim then loses, that number is left unused (a hole
    // listRuns does not mind: it lists by prefix).
    const seq = job ? 1 : await this.incrementSequence(['run_seq', run.jobId])
    const queued: RunRecord = {
      id: run.id,
      jobId: run.jobId,
      projectId: run.projectId,
      prompt,
      createdAt: run.startedAt,
      seq,
      status: 'queued',
      attempts: 0,
      leaseOwner: null,
      leaseExpiresAt: null,
      finishedAt: null,
      error: null,
    }
    const op = this.kv
      .atomic()
      .check({ key: claim, versionstamp: null })
      .set(claim, run.id)
      .set(['automation_run', run.id], run)
      .set(['automation_run_by', run.projectId, run.automationId, ms(run.startedAt), run.id], run.id)
      .set(['run', run.id], queued)
      .set(['run_by_job', run.jobId, seq], run.id)
      .set(['run_open', ms(run.startedAt), seq, run.id], run.id)
    if (job) {
      op.set(['job', job.id], { ...job, conversation: await this.putLarge(['conversation', job.id], job.conversation) })
        .set(['job_by_project', job.projectId, ms(job.createdAt), job.id], job.id)
        .set(['run_seq', job.id], 1)
    }
    return (await op.commit()).ok ? run : null
  }
  async getAutomationRun(projectId: string, id: string) {
    const run = (await this.kv.get<AutomationRunRecord>(['automation_run', id])).value
    return run && run.projectId === projectId ? run : null
  }
  async updateAutomationRun(id: string, patch: Parameters<Store['updateAutomationRun']>[1]) {
    return retry(async () => {
      const entry = await this.kv.get<AutomationRunRecord>(['automation_run', id])
      if (!entry.value) return null
      const next = { ...entry.value, ...patch }
      return (await this.kv.atomic().check(entry).set(['automation_run', id], next).commit()).ok ? next : CONFLICT
    })
  }
  async listAutomationRuns(projectId: string, automationId: string, page: PageRequest): Promise<Page<AutomationRunRecord>> {
    return this.pageOf(['automation_run_by', projectId, automationId], { list: 'automation-runs', projectId, automationId }, page, (id) =>
      this.getAutomationRun(projectId, id),
    )
  }

  // Code changes -------------------------------------------------------------------------------------------

  async recordCodeChange(change: CodeChangeRecord) {
    const key: KvKey = ['code_change', change.projectId, change.repository, change.kind, change.ref]
    const result = await this.kv
      .atomic()
      .check({ key, versionstamp: null })
      .set(key, change)
      .set(['code_change_by_time', change.projectId, ms(change.receivedAt), change.repository, change.kind, change.ref], change)
      .commit()
    return result.ok
  }
  async listCodeChanges(projectId: string, { after, until, limit }: { after: Date; until: Date; limit: number }) {
    const changes: CodeChangeRecord[] = []
    const selector = { prefix: ['code_change_by_time', projectId], start: ['code_change_by_time', projectId, ms(after) + 1] }
    for await (const entry of this.kv.list<CodeChangeRecord>(selector as KvSelector)) {
      if (!entry.value || ms(entry.value.receivedAt) > ms(until)) break
      changes.push(entry.value)
      if (changes.length >= limit) break
    }
    return changes
  }
}

/** Opens Deno KV (`Deno.openKv`): a local file path, `:memory:`, or Deno Deploy's KV when no path is given. */
export async function openDenoKvStore(path?: string): Promise<Store> {
  const deno = (globalThis as { Deno?: { openKv?: (path?: string) => Promise<Kv> } }).Deno
  if (!deno?.openKv) {
    throw new Error('the denokv store needs Deno with KV enabled (deno run --unstable-kv, or "unstable": ["kv"] in deno.json)')
  }
  return new DenoKvStore(await deno.openKv(path))
}
