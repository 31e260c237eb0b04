import type { AgentEvent } from '../../../shared/agent.ts'
import { decodeCursor, encodeCursor } from '../cursor.ts'
import type { ClaimOptions, FeedbackRecord, JobRecord, KeyRecord, MessageRecord, Page, PageRequest, Store, ThreadRecord } from '../types.ts'
import { SqlAnalyticsStore } from './analytics.ts'
import type { Row, SqlClient } from './client.ts'
import { iso, jobColumns, jobFromRow, json, keyFromRow, messageFromRow, patchStatement, runFromRow, threadFromRow } from './rows.ts'

/** Postgres text cannot hold U+0000: an id or hash containing one names nothing that was ever stored. */
const unstorable = (...values: Array<string | undefined>) => values.some((value) => value?.includes('\u0000'))

/** Expired rate-limit counters are swept once every this many increments (per instance). */
const SWEEP_EVERY = 500

/**
 * The Store in SQL, the same statements on PGlite (embedded) and on a PostgreSQL server. Counters are one upsert,
 * run claims one `FOR UPDATE SKIP LOCKED` update, so several server processes sharing one database stay correct.
 */
export class SqlStore extends SqlAnalyticsStore implements Store {
  private increments = 0

  constructor(
    readonly kind: string,
    db: SqlClient,
  ) {
    super(db)
  }

  close() {
    return this.db.close()
  }

  // Keys ---------------------------------------------------------------------------------------------------

  async insertKey(key: KeyRecord) {
    // One hash is one secret: instances starting together may both seed the same key from env; the first one stays.
    await this.db.query(
      `INSERT INTO docent_keys (id, hash, kind, organization, project_id, name, last4, created_at, expires_at, revoked_at)
       VALUES ($1, $2, $3, $4, $5, $6::text::json, $7, $8::timestamptz, $9::timestamptz, $10::timestamptz)
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
      ],
    )
  }
  async findKeyByHash(hash: string) {
    if (unstorable(hash)) return null
    const [row] = await this.db.query(`SELECT * FROM docent_keys WHERE hash = $1`, [hash])
    return row ? keyFromRow(row) : null
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
    return rows.length === 1
  }
  async countKeys() {
    const [row] = await this.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM docent_keys`)
    return row!.n
  }

  // Rate-limit counters ------------------------------------------------------------------------------------

  async incrementCounter(key: string, expiresAt: Date) {
    // The application's clock decides expiry (as in every adapter), so windows agree whatever the database's clock says.
    const now = new Date()
    if (++this.increments % SWEEP_EVERY === 0) {
      await this.db.query(`DELETE FROM docent_counters WHERE expires_at < $1::timestamptz`, [iso(now)])
    }
    const [row] = await this.db.query<{ value: number }>(
      `INSERT INTO docent_counters AS c (key, value, expires_at) VALUES ($1, 1, $2::timestamptz)
       ON CONFLICT (key) DO UPDATE SET
         value = CASE WHEN c.expires_at < $3::timestamptz THEN 1 ELSE c.value + 1 END,
         expires_at = CASE WHEN c.expires_at < $3::timestamptz THEN EXCLUDED.expires_at ELSE c.expires_at END
       RETURNING value`,
      [key, iso(expiresAt), iso(now)],
    )
    return row!.value
  }

  // Jobs ---------------------------------------------------------------------------------------------------

  async insertJob(job: JobRecord) {
    await this.db.query(
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
    return this.page('docent_jobs', 'created_at', projectId, page, jobFromRow, (job) => job.createdAt)
  }
  async appendJobEvent(jobId: string, event: AgentEvent) {
    await this.db.query(`INSERT INTO docent_job_events (job_id, event) VALUES ($1, $2::text::json)`, [jobId, json(event)])
  }
  async listJobEvents(jobId: string) {
    if (unstorable(jobId)) return []
    const rows = await this.db.query<{ event: AgentEvent }>(`SELECT event FROM docent_job_events WHERE job_id = $1 ORDER BY position`, [
      jobId,
    ])
    return rows.map((row) => row.event)
  }

  // Run queue ----------------------------------------------------------------------------------------------

  async enqueueRun(run: Parameters<Store['enqueueRun']>[0]) {
    // seq is the job's next number; two enqueues racing for the same number meet the unique (job_id, seq) index,
    // the loser inserts nothing and tries the next number.
    for (let attempt = 0; attempt < 100; attempt++) {
      const [row] = await this.db.query(
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
  async listThreads(projectId: string, page: PageRequest) {
    if (unstorable(projectId)) return { items: [], nextCursor: null }
    return this.page('docent_threads', 'updated_at', projectId, page, threadFromRow, (thread) => thread.updatedAt)
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

  // Pages: newest first by (at, id), the cursor holding the last item's sort key, as in the memory store.

  private async page<T extends { id: string }>(
    table: string,
    at: string,
    projectId: string,
    page: PageRequest,
    fromRow: (row: Row) => T,
    atOf: (item: T) => Date,
  ): Promise<Page<T>> {
    const after = decodeCursor(page.cursor)
    const params: unknown[] = [projectId, page.limit + 1]
    const where = after ? ` AND (${at}, id) < ($3::timestamptz, $4::text)` : ''
    // A cursor is client input: a U+0000 in it (which no stored id has) is cut off rather than sent to Postgres.
    if (after) params.push(after.at.toISOString(), after.id.split('\u0000')[0])
    const rows = await this.db.query(`SELECT * FROM ${table} WHERE project_id = $1${where} ORDER BY ${at} DESC, id DESC LIMIT $2`, params)
    const items = rows.slice(0, page.limit).map(fromRow)
    const last = items.at(-1)
    return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(atOf(last), last.id) : null }
  }
}
