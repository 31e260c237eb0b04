import type { AgentEvent } from '../../../shared/agent.ts'
import { type CursorScope, decodeCursor, encodeCursor } from '../cursor.ts'
import { LocalCounters } from '../local-counters.ts'
import type {
  Admission,
  ClaimOptions,
  CounterLimit,
  AutomationRecord,
  CodeChangeRecord,
  FeedbackRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  Page,
  PageRequest,
  SessionRecord,
  Store,
  ThreadRecord,
  ThreadWrite,
} from '../types.ts'
import { SqlAnalyticsStore } from './analytics.ts'
import type { Row, SqlClient, SqlQueries } from './client.ts'
import {
  automationFromRow,
  automationRunColumns,
  automationRunFromRow,
  codeChangeFromRow,
  iso,
  jobColumns,
  jobFromRow,
  json,
  keyFromRow,
  messageFromRow,
  patchStatement,
  runFromRow,
  sessionFromRow,
  sqlLiteral,
  threadFromRow,
} from './rows.ts'

/** Postgres text cannot hold U+0000: an id or hash containing one names nothing that was ever stored. */
const unstorable = (...values: Array<string | undefined>) => values.some((value) => value?.includes('\u0000'))

/** Expired rate-limit counters are swept from the table once every this many admissions or flushes (per instance). */
const SWEEP_EVERY = 500

/**
 * How long a key looked up by hash is trusted in this process before it is read again: the bound on how late a
 * revocation made by another instance (or the CLI, on PostgreSQL) takes effect here. Revocations and new keys made
 * through this instance take effect at once.
 */
export const KEY_CACHE_MS = 5_000
const KEY_CACHE_MAX = 10_000

export interface SqlStoreOptions {
  /** Override of `KEY_CACHE_MS` (tests). */
  keyCacheMs?: number
  /**
   * This process alone uses the database (embedded PGlite): rate-limit counters are then kept in memory and written in
   * batches every `counterFlushMs`, instead of a statement per request. A crash loses at most that long of counting.
   */
  exclusive?: { counterFlushMs: number }
}

/**
 * The Store in SQL, the same statements on PGlite (embedded) and on a PostgreSQL server. Admissions are one function
 * call, run claims one `FOR UPDATE SKIP LOCKED` update, so several server processes sharing one database stay correct.
 */
export class SqlStore extends SqlAnalyticsStore implements Store {
  private sweeps = 0
  private local?: LocalCounters
  private flushTimer?: ReturnType<typeof setInterval>
  private flushing: Promise<void> = Promise.resolve()
  /** Keys by hash (null: no such key), each with the time it stops being trusted. */
  private keys = new Map<string, { key: KeyRecord | null; until: number }>()

  private constructor(
    readonly kind: string,
    db: SqlClient,
    private readonly keyCacheMs: number,
  ) {
    super(db)
  }

  static async open(kind: string, db: SqlClient, options: SqlStoreOptions = {}): Promise<SqlStore> {
    const store = new SqlStore(kind, db, options.keyCacheMs ?? KEY_CACHE_MS)
    if (options.exclusive) {
      const now = new Date()
      const rows = await db.query<{ key: string; value: number; expires_at: Date }>(
        `SELECT key, value, expires_at FROM docent_counters WHERE expires_at > $1::timestamptz`,
        [iso(now)],
      )
      store.local = new LocalCounters(true)
      store.local.load(
        rows.map((row) => ({ key: row.key, value: row.value, expiresAt: new Date(row.expires_at) })),
        now,
      )
      store.flushTimer = setInterval(() => void store.flushCounters(), options.exclusive.counterFlushMs)
      ;(store.flushTimer as { unref?: () => void }).unref?.()
    }
    return store
  }

  async close() {
    if (this.flushTimer) clearInterval(this.flushTimer)
    await this.flushCounters()
    return this.db.close()
  }

  // Keys ---------------------------------------------------------------------------------------------------

  async insertKey(key: KeyRecord) {
    // One hash is one secret: instances starting together may both seed the same key from env; the first one stays.
    await this.db.query(
      `INSERT INTO docent_keys (id, hash, kind, organization, project_id, name, last4, created_at, expires_at, revoked_at, scope)
       VALUES ($1, $2, $3, $4, $5, $6::text::json, $7, $8::timestamptz, $9::timestamptz, $10::timestamptz, coalesce($11::text, 'write'))
       ON CONFLICT (hash) DO NOTHING`,
      [
        key.id,
        key.hash,
        key.kind,
        key.organization,
        key.projectId,
        json(key.name),
        key.last4,
        iso(key.createdAt),
        iso(key.expiresAt),
        iso(key.revokedAt),
        key.scope ?? null,
      ],
    )
    this.keys.delete(key.hash)
  }
  async findKeyByHash(hash: string) {
    if (unstorable(hash)) return null
    const now = Date.now()
    const cached = this.keys.get(hash)
    if (cached && cached.until > now) return cached.key
    const [row] = await this.db.query(`SELECT * FROM docent_keys WHERE hash = $1`, [hash])
    const key = row ? keyFromRow(row) : null
    this.keys.delete(hash)
    if (this.keys.size >= KEY_CACHE_MAX) this.keys.delete(this.keys.keys().next().value!)
    this.keys.set(hash, { key, until: now + this.keyCacheMs })
    return key
  }
  async listKeys(organization?: string) {
    const rows =
      organization === undefined
        ? await this.db.query(`SELECT * FROM docent_keys ORDER BY created_at, id`)
        : unstorable(organization)
          ? []
          : await this.db.query(`SELECT * FROM docent_keys WHERE organization = $1 ORDER BY created_at, id`, [organization])
    return rows.map(keyFromRow)
  }
  async revokeKey(id: string, at: Date) {
    if (unstorable(id)) return false
    const rows = await this.db.query(
      `UPDATE docent_keys SET revoked_at = $2::timestamptz WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
      [id, iso(at)],
    )
    for (const [hash, cached] of this.keys) if (cached.key?.id === id) this.keys.delete(hash)
    return rows.length === 1
  }
  async ping() {
    await this.db.query('SELECT 1')
  }
  async countKeys() {
    const [row] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM docent_keys`)
    return row!.n
  }

  // Console sessions ---------------------------------------------------------------------------------------

  async insertSession(session: SessionRecord) {
    await this.db.query(
      `INSERT INTO docent_sessions (hash, key_id, key_hash, organization, created_at, expires_at)
       VALUES ($1, $2, $3, $4, $5::timestamptz, $6::timestamptz)`,
      [session.hash, session.keyId, session.keyHash, session.organization, iso(session.createdAt), iso(session.expiresAt)],
    )
  }
  async findSession(hash: string) {
    if (unstorable(hash)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_sessions WHERE hash = $1`, [hash])
    return row ? sessionFromRow(row) : null
  }
  async deleteSession(hash: string) {
    if (unstorable(hash)) return false
    return (await this.db.query(`DELETE FROM docent_sessions WHERE hash = $1 RETURNING hash`, [hash])).length === 1
  }
  async deleteExpiredSessions(now: Date) {
    return (await this.db.query(`DELETE FROM docent_sessions WHERE expires_at < $1::timestamptz RETURNING hash`, [iso(now)])).length
  }

  // Rate-limit counters ------------------------------------------------------------------------------------

  async admit(counters: CounterLimit[], now: Date): Promise<Admission> {
    if (counters.length === 0) return { admitted: true, counts: [] }
    if (this.local) return this.local.admit(counters, now)
    // The application's clock decides expiry (as in every adapter), so windows agree whatever the database's clock says.
    if (++this.sweeps % SWEEP_EVERY === 0) await this.sweepCounters(now)
    const [row] = await this.db.query<{ admitted: boolean; counts: number[] }>(
      `SELECT admitted, counts FROM docent_admit($1::text[], $2::integer[], $3::timestamptz[], $4::timestamptz)`,
      [counters.map((c) => c.key), counters.map((c) => c.limit), counters.map((c) => iso(c.expiresAt)), iso(now)],
    )
    return { admitted: row!.admitted, counts: row!.counts.map(Number) }
  }

  /** Writes the in-memory counters that changed (embedded store only): one statement for the whole batch. */
  private flushCounters(): Promise<void> {
    const rows = this.local?.drain() ?? []
    if (rows.length === 0) return this.flushing
    this.flushing = this.flushing.then(async () => {
      try {
        await this.db.query(
          `INSERT INTO docent_counters (key, value, expires_at)
           SELECT * FROM unnest($1::text[], $2::integer[], $3::timestamptz[])
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
          [rows.map((r) => r.key), rows.map((r) => r.value), rows.map((r) => iso(r.expiresAt))],
        )
        if (++this.sweeps % SWEEP_EVERY === 0) await this.sweepCounters(new Date())
      } catch {
        // The database is failing: the counts stay in memory (where limits are decided) and go with the next batch.
        this.local?.undrain(rows.map((r) => r.key))
      }
    })
    return this.flushing
  }

  private async sweepCounters(now: Date) {
    await this.db.query(`DELETE FROM docent_counters WHERE expires_at < $1::timestamptz`, [iso(now)])
  }

  // Jobs ---------------------------------------------------------------------------------------------------

  async insertJob(job: JobRecord) {
    await insertJobWith(this.db, job)
  }
  async getJob(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_jobs WHERE id = $1 AND project_id = $2`, [id, projectId])
    return row ? jobFromRow(row) : null
  }
  async updateJob(
    id: string,
    patch: Partial<Omit<JobRecord, 'id' | 'projectId' | 'createdAt'>>,
    options: { ifStatusIn?: JobRecord['status'][] } = {},
  ) {
    if (unstorable(id)) return null
    const { text, params } = patchStatement('docent_jobs', jobColumns, id, patch, options.ifStatusIn)
    const [row] = await this.db.query(text, params)
    return row ? jobFromRow(row) : null
  }
  async listJobs(projectId: string, page: PageRequest) {
    if (unstorable(projectId)) return { items: [], nextCursor: null }
    return this.page('docent_jobs', 'created_at', { list: 'jobs', projectId }, page, jobFromRow, (job) => job.createdAt)
  }
  async appendJobEvent(jobId: string, event: AgentEvent) {
    await this.db.query(`INSERT INTO docent_job_events (job_id, event) VALUES ($1, $2::text::json)`, [jobId, json(event)])
  }
  async listJobEvents(jobId: string, { after = 0 }: { after?: number } = {}) {
    if (unstorable(jobId)) return []
    const rows = await this.db.query<{ event: AgentEvent }>(
      `SELECT event FROM docent_job_events WHERE job_id = $1 ORDER BY position OFFSET $2`,
      [jobId, Math.max(0, Math.floor(after))],
    )
    return rows.map((row) => row.event)
  }

  // Run queue ----------------------------------------------------------------------------------------------

  async enqueueRun(run: Parameters<Store['enqueueRun']>[0]) {
    return enqueueWith(this.db, run)
  }
  async claimRun({ owner, leaseMs, now }: ClaimOptions) {
    // SKIP LOCKED: a run another instance is claiming right now is passed over, not waited for; when its claim
    // commits first, Postgres re-checks the status and lease on the new row version, so no run is handed out twice.
    const [row] = await this.db.query(
      `WITH candidate AS (
         SELECT r.id FROM docent_runs r
         WHERE (r.status = 'queued' OR (r.status = 'running' AND coalesce(r.lease_expires_at <= $3::timestamptz, true)))
           AND NOT EXISTS (
             SELECT 1 FROM docent_runs earlier
             WHERE earlier.job_id = r.job_id AND earlier.seq < r.seq AND earlier.status IN ('queued', 'running'))
         ORDER BY r.created_at, r.seq, r.id
         LIMIT 1
         FOR UPDATE SKIP LOCKED
       )
       UPDATE docent_runs r SET status = 'running', lease_owner = $1, lease_expires_at = $2::timestamptz, attempts = r.attempts + 1
       FROM candidate WHERE r.id = candidate.id
       RETURNING r.*`,
      [owner, iso(new Date(now.getTime() + leaseMs)), iso(now)],
    )
    return row ? runFromRow(row) : null
  }
  async renewLease(runId: string, owner: string, leaseMs: number, now: Date) {
    if (unstorable(runId, owner)) return false
    const rows = await this.db.query(
      `UPDATE docent_runs SET lease_expires_at = $3::timestamptz WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
      [runId, owner, iso(new Date(now.getTime() + leaseMs))],
    )
    return rows.length === 1
  }
  async finishRun(runId: string, owner: string, status: 'done' | 'failed', error: string | null = null) {
    if (unstorable(runId, owner)) return false
    const rows = await this.db.query(
      `UPDATE docent_runs SET status = $3, error = $4::text::json, finished_at = $5::timestamptz, lease_expires_at = NULL
       WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
      [runId, owner, status, json(error), iso(new Date())],
    )
    return rows.length === 1
  }
  async cancelRuns(jobId: string) {
    if (unstorable(jobId)) return 0
    const rows = await this.db.query(
      `UPDATE docent_runs SET status = 'cancelled', finished_at = $2::timestamptz WHERE job_id = $1 AND status IN ('queued', 'running') RETURNING id`,
      [jobId, iso(new Date())],
    )
    return rows.length
  }
  async countOpenRuns(jobId: string) {
    if (unstorable(jobId)) return 0
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM docent_runs WHERE job_id = $1 AND status IN ('queued', 'running')`,
      [jobId],
    )
    return row!.n
  }
  async listRuns(jobId: string) {
    if (unstorable(jobId)) return []
    return (await this.db.query(`SELECT * FROM docent_runs WHERE job_id = $1 ORDER BY seq`, [jobId])).map(runFromRow)
  }

  // Threads ------------------------------------------------------------------------------------------------

  async createThread(thread: ThreadRecord) {
    await this.db.query(
      `INSERT INTO docent_threads (id, project_id, fp, created_at, updated_at, message_count) VALUES ($1, $2, $3, $4::timestamptz, $5::timestamptz, $6)`,
      [thread.id, thread.projectId, thread.fp, iso(thread.createdAt), iso(thread.updatedAt), thread.messageCount],
    )
  }
  async getThread(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_threads WHERE id = $1 AND project_id = $2`, [id, projectId])
    return row ? threadFromRow(row) : null
  }
  async appendMessages(threadId: string, messages: MessageRecord[], at: Date) {
    await this.db.transaction(async (tx) => {
      const bumped = unstorable(threadId)
        ? []
        : await tx.query(
            `UPDATE docent_threads SET message_count = message_count + $2, updated_at = $3::timestamptz WHERE id = $1 RETURNING id`,
            [threadId, messages.length, iso(at)],
          )
      if (bumped.length === 0) throw new Error(`no thread ${threadId}`)
      if (messages.length === 0) return
      const params: unknown[] = [threadId]
      const values = messages.map((message) => {
        const n = params.push(message.id, message.role, json(message.content), json(message.sources), iso(message.createdAt))
        return `($1, $${n - 4}, $${n - 3}, $${n - 2}::text::json, $${n - 1}::text::json, $${n}::timestamptz)`
      })
      await tx.query(`INSERT INTO docent_messages (thread_id, id, role, content, sources, created_at) VALUES ${values.join(', ')}`, params)
    })
  }
  async saveThreads(writes: ThreadWrite[]) {
    if (writes.length === 0) return
    const threads = [...new Map(writes.map((w) => [w.thread.id, w.thread])).values()]
    const bumps = new Map<string, { count: number; at: Date }>()
    for (const { thread, messages, at } of writes) {
      const bump = bumps.get(thread.id) ?? { count: 0, at }
      bumps.set(thread.id, { count: bump.count + messages.length, at: new Date(Math.max(at.getTime(), bump.at.getTime())) })
    }
    const messages = writes.flatMap((w) => w.messages.map((message) => ({ ...message, threadId: w.thread.id })))
    const time = (at: Date) => `${sqlLiteral(at.toISOString())}::timestamptz`
    const batch = threads.map((t) => {
      const { count, at } = bumps.get(t.id)!
      return `(${sqlLiteral(t.id)}, ${sqlLiteral(t.projectId)}, ${sqlLiteral(t.fp)}, ${time(t.createdAt)}, ${count}, ${time(at)})`
    })
    const rows = messages.map(
      (m) =>
        `(${sqlLiteral(m.threadId)}, ${sqlLiteral(m.id)}, ${sqlLiteral(m.role)}, ${sqlLiteral(json(m.content))}::json, ` +
        `${sqlLiteral(json(m.sources))}::json, ${time(m.createdAt)})`,
    )
    // One statement, atomic as a whole, with no parameters (see `SqlQueries.simple`): this runs for every answer. A new
    // thread is inserted with its counts; the UPDATE, which cannot see rows inserted by the same statement, bumps the
    // threads already stored. Thread ids are made per answer, so no other writer inserts the same new thread.
    await this.db.simple(
      `WITH batch (id, project_id, fp, created_at, count, at) AS (VALUES ${batch.join(', ')}),
       created AS (
         INSERT INTO docent_threads (id, project_id, fp, created_at, updated_at, message_count)
         SELECT id, project_id, fp, created_at, greatest(created_at, at), count FROM batch
         ON CONFLICT (id) DO NOTHING
       ),
       bumped AS (
         UPDATE docent_threads t SET message_count = t.message_count + b.count, updated_at = greatest(t.updated_at, b.at)
         FROM batch b WHERE t.id = b.id
       )
       ${
         rows.length > 0
           ? `INSERT INTO docent_messages (thread_id, id, role, content, sources, created_at) VALUES ${rows.join(', ')}`
           : 'SELECT 1'
       }`,
    )
  }
  async listThreads(projectId: string, page: PageRequest) {
    if (unstorable(projectId)) return { items: [], nextCursor: null }
    return this.page('docent_threads', 'updated_at', { list: 'threads', projectId }, page, threadFromRow, (thread) => thread.updatedAt)
  }
  async listMessages(threadId: string) {
    if (unstorable(threadId)) return []
    const rows = await this.db.query(
      `SELECT m.*, f.rating, f.comment FROM docent_messages m
       LEFT JOIN docent_feedback f ON f.thread_id = m.thread_id AND f.message_id = m.id
       WHERE m.thread_id = $1 ORDER BY m.position`,
      [threadId],
    )
    return rows.map((row) => {
      const message = messageFromRow(row)
      if (row.rating == null) return message
      const feedback = { rating: row.rating as FeedbackRecord['rating'], ...(row.comment ? { comment: row.comment as string } : {}) }
      return { ...message, feedback }
    })
  }
  async putFeedback(feedback: FeedbackRecord) {
    if (unstorable(feedback.threadId, feedback.messageId)) return false
    const rows = await this.db.query(
      `INSERT INTO docent_feedback (thread_id, message_id, rating, comment, created_at, project_id)
       SELECT $1::text, $2::text, $3::text, $4::text::json, $5::timestamptz, (SELECT project_id FROM docent_threads WHERE id = $1::text)
       WHERE EXISTS (SELECT 1 FROM docent_messages WHERE thread_id = $1::text AND id = $2::text)
       ON CONFLICT (thread_id, message_id) DO UPDATE SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, created_at = EXCLUDED.created_at
       RETURNING thread_id`,
      [feedback.threadId, feedback.messageId, feedback.rating, json(feedback.comment), iso(feedback.createdAt)],
    )
    return rows.length === 1
  }

  // Automations -------------------------------------------------------------------------------------------

  async getAutomation(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_automations WHERE project_id = $1 AND id = $2`, [projectId, id])
    return row ? automationFromRow(row) : null
  }
  async listAutomations(projectId: string) {
    if (unstorable(projectId)) return []
    const rows = await this.db.query(`SELECT * FROM docent_automations WHERE project_id = $1 ORDER BY created_at, id`, [projectId])
    return rows.map(automationFromRow)
  }
  async putAutomation(a: AutomationRecord) {
    await this.db.query(
      `INSERT INTO docent_automations (project_id, id, kind, name, enabled, trigger, mode, instructions, languages, prompt,
         schedule_from, last_slot, content_revision, created_at, updated_at)
       VALUES ($1, $2, $3, $4::text::json, $5, $6::text::json, $7, $8::text::json, $9::text::json, $10::text::json,
         $11::timestamptz, $12::timestamptz, $13, $14::timestamptz, $15::timestamptz)
       ON CONFLICT (project_id, id) DO UPDATE SET kind = EXCLUDED.kind, name = EXCLUDED.name, enabled = EXCLUDED.enabled,
         trigger = EXCLUDED.trigger, mode = EXCLUDED.mode, instructions = EXCLUDED.instructions, languages = EXCLUDED.languages,
         prompt = EXCLUDED.prompt, schedule_from = EXCLUDED.schedule_from, last_slot = EXCLUDED.last_slot,
         content_revision = EXCLUDED.content_revision, updated_at = EXCLUDED.updated_at`,
      [
        a.projectId,
        a.id,
        a.kind,
        json(a.name),
        a.enabled,
        json(a.trigger),
        a.mode,
        json(a.instructions),
        json(a.languages),
        json(a.prompt),
        iso(a.scheduleFrom),
        iso(a.lastSlot),
        a.contentRevision,
        iso(a.createdAt),
        iso(a.updatedAt),
      ],
    )
  }
  async deleteAutomation(projectId: string, id: string) {
    if (unstorable(projectId, id)) return false
    const rows = await this.db.query(`DELETE FROM docent_automations WHERE project_id = $1 AND id = $2 RETURNING id`, [projectId, id])
    return rows.length === 1
  }
  async startAutomationRun({ run, job, prompt }: Parameters<Store['startAutomationRun']>[0]) {
    // One transaction: the key's unique index is the claim; a claim that loses inserts nothing else.
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query(
        `INSERT INTO docent_automation_runs (id, project_id, automation_id, key, reason, started_at, job_id, status, pr_link, note,
           base_commit, context)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8, $9, $10::text::json, $11, $12::text::json)
         ON CONFLICT (project_id, automation_id, key) DO NOTHING
         RETURNING *`,
        [
          run.id,
          run.projectId,
          run.automationId,
          run.key,
          run.reason,
          iso(run.startedAt),
          run.jobId,
          run.status,
          run.prLink,
          json(run.note),
          run.baseCommit,
          json(run.context),
        ],
      )
      if (!row) return null
      if (job) await insertJobWith(tx, job)
      await enqueueWith(tx, { id: run.id, jobId: run.jobId, projectId: run.projectId, prompt, createdAt: run.startedAt })
      return automationRunFromRow(row)
    })
  }
  async getAutomationRun(projectId: string, id: string) {
    if (unstorable(projectId, id)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_automation_runs WHERE id = $1 AND project_id = $2`, [id, projectId])
    return row ? automationRunFromRow(row) : null
  }
  async updateAutomationRun(id: string, patch: Parameters<Store['updateAutomationRun']>[1]) {
    if (unstorable(id)) return null
    const { text, params } = patchStatement('docent_automation_runs', automationRunColumns, id, patch)
    const [row] = await this.db.query(text, params)
    return row ? automationRunFromRow(row) : null
  }
  async listAutomationRuns(projectId: string, automationId: string, page: PageRequest) {
    if (unstorable(projectId, automationId)) return { items: [], nextCursor: null }
    const scope = { list: 'automation-runs', projectId, automationId } as const
    const after = await decodeCursor(scope, page.cursor)
    const params: unknown[] = [projectId, automationId, page.limit + 1]
    const where = after ? ` AND (started_at, id) < ($4::timestamptz, $5::text)` : ''
    if (after) params.push(after.at.toISOString(), after.id.split('\u0000')[0])
    const rows = await this.db.query(
      `SELECT * FROM docent_automation_runs WHERE project_id = $1 AND automation_id = $2${where}
       ORDER BY started_at DESC, id DESC LIMIT $3`,
      params,
    )
    const items = rows.slice(0, page.limit).map(automationRunFromRow)
    const last = items.at(-1)
    return { items, nextCursor: rows.length > page.limit && last ? await encodeCursor(scope, last.startedAt, last.id) : null }
  }

  // Code changes --------------------------------------------------------------------------------------------

  async recordCodeChange(change: CodeChangeRecord) {
    const rows = await this.db.query(
      `INSERT INTO docent_code_changes (project_id, repository, kind, ref, title, body, labels, url, commit_id, received_at)
       VALUES ($1, $2, $3, $4, $5::text::json, $6::text::json, $7::text::json, $8, $9, $10::timestamptz)
       ON CONFLICT (project_id, repository, kind, ref) DO NOTHING
       RETURNING ref`,
      [
        change.projectId,
        change.repository,
        change.kind,
        change.ref,
        json(change.title),
        json(change.body),
        json(change.labels),
        change.url,
        change.commit,
        iso(change.receivedAt),
      ],
    )
    return rows.length === 1
  }
  async listCodeChanges(projectId: string, { after, until, limit }: { after: Date; until: Date; limit: number }) {
    if (unstorable(projectId)) return []
    const rows = await this.db.query(
      `SELECT * FROM docent_code_changes WHERE project_id = $1 AND received_at > $2::timestamptz AND received_at <= $3::timestamptz
       ORDER BY received_at, repository, ref LIMIT $4`,
      [projectId, iso(after), iso(until), limit],
    )
    return rows.map(codeChangeFromRow)
  }

  // Pages: newest first by (at, id), the cursor holding the last item's sort key, as in the memory store.

  private async page<T extends { id: string }>(
    table: string,
    at: string,
    scope: CursorScope,
    page: PageRequest,
    fromRow: (row: Row) => T,
    atOf: (item: T) => Date,
  ): Promise<Page<T>> {
    const after = await decodeCursor(scope, page.cursor)
    const params: unknown[] = [scope.projectId, page.limit + 1]
    const where = after ? ` AND (${at}, id) < ($3::timestamptz, $4::text)` : ''
    // A cursor is client input: a U+0000 in it (which no stored id has) is cut off rather than sent to Postgres.
    if (after) params.push(after.at.toISOString(), after.id.split('\u0000')[0])
    const rows = await this.db.query(`SELECT * FROM ${table} WHERE project_id = $1${where} ORDER BY ${at} DESC, id DESC LIMIT $2`, params)
    const items = rows.slice(0, page.limit).map(fromRow)
    const last = items.at(-1)
    return { items, nextCursor: rows.length > page.limit && last ? await encodeCursor(scope, atOf(last), last.id) : null }
  }
}

async function insertJobWith(db: SqlQueries, job: JobRecord): Promise<void> {
  await db.query(
    `INSERT INTO docent_jobs (id, project_id, status, source, model, branch, pr, error, conversation, created_at, updated_at, archived_at)
     VALUES ($1, $2, $3, $4::text::json, $5, $6, $7::text::json, $8::text::json, $9::text::json, $10::timestamptz, $11::timestamptz, $12::timestamptz)`,
    [
      job.id,
      job.projectId,
      job.status,
      json(job.source),
      job.model,
      job.branch,
      json(job.pr),
      json(job.error),
      json(job.conversation),
      iso(job.createdAt),
      iso(job.updatedAt),
      iso(job.archivedAt),
    ],
  )
}

async function enqueueWith(db: SqlQueries, run: Parameters<Store['enqueueRun']>[0]) {
  // seq is the job's next number; two enqueues racing for the same number meet the unique (job_id, seq) index,
  // the loser inserts nothing and tries the next number.
  for (let attempt = 0; attempt < 100; attempt++) {
    const [row] = await db.query(
      `INSERT INTO docent_runs (id, job_id, project_id, prompt, seq, status, created_at)
       SELECT $1::text, $2::text, $3::text, $4::text::json, coalesce(max(seq), 0) + 1, 'queued', $5::timestamptz
       FROM docent_runs WHERE job_id = $2::text
       ON CONFLICT (job_id, seq) DO NOTHING
       RETURNING *`,
      [run.id, run.jobId, run.projectId, json(run.prompt), iso(run.createdAt)],
    )
    if (row) return runFromRow(row)
  }
  throw new Error(`could not enqueue run ${run.id}: too many concurrent enqueues on job ${run.jobId}`)
}
