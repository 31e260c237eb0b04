import type { AgentEvent } from '../../../shared/agent.ts'
import { decodeCursor, encodeCursor } from '../cursor.ts'
import type {
  AutomationRecord,
  ClaimOptions,
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
} from '../types.ts'
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
  runFromRow,
  sessionFromRow,
  threadFromRow,
} from './rows.ts'

/** Postgres text cannot hold U+0000: an id or hash containing one names nothing that was ever stored. */
const unstorable = (...values: Array<string | undefined>) => values.some((value) => value?.includes('\u0000'))

/** Expired rate-limit counters are swept once every this many increments (per instance). */
const SWEEP_EVERY = 500

/**
 * The Store in SQL, the same statements on PGlite (embedded) and on a PostgreSQL server. Counters are one upsert,
 * run claims one `FOR UPDATE SKIP LOCKED` update, so several server processes sharing one database stay correct.
 */
export class SqlStore implements Store {
  private increments = 0

  constructor(
    readonly kind: string,
    private readonly db: SqlClient,
  ) {}

  close() {
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
    const params: unknown[] = [id]
    const sets = setClauses(jobColumns, patch, params)
    let condition = ''
    if (options.ifStatusIn) {
      const placeholders = options.ifStatusIn.map((status) => `$${params.push(status)}`)
      condition = placeholders.length ? ` AND status IN (${placeholders.join(', ')})` : ' AND false'
    }
    const [row] = await this.db.query(
      `UPDATE docent_jobs SET ${sets.join(', ') || 'id = id'} WHERE id = $1${condition} RETURNING *`,
      params,
    )
    return row ? jobFromRow(row) : null
  }
  async listJobs(projectId: string, page: PageRequest) {
    if (unstorable(projectId)) return { items: [], nextCursor: null }
    return this.page('docent_jobs', 'created_at', projectId, page, jobFromRow, (job) => job.createdAt)
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
      `INSERT INTO docent_feedback (thread_id, message_id, rating, comment, created_at)
       SELECT $1::text, $2::text, $3::text, $4::text::json, $5::timestamptz
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
    const params: unknown[] = [id]
    const sets = setClauses(automationRunColumns, patch, params)
    const [row] = await this.db.query(`UPDATE docent_automation_runs SET ${sets.join(', ') || 'id = id'} WHERE id = $1 RETURNING *`, params)
    return row ? automationRunFromRow(row) : null
  }
  async listAutomationRuns(projectId: string, automationId: string, page: PageRequest) {
    if (unstorable(projectId, automationId)) return { items: [], nextCursor: null }
    const after = decodeCursor(page.cursor)
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
    return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last.startedAt, last.id) : null }
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

/** `column = $n::cast` for each field of the patch the table has, its values appended to `params`. */
function setClauses(columns: Record<string, [string, (value: never) => unknown, string]>, patch: object, params: unknown[]): string[] {
  const sets: string[] = []
  for (const [field, value] of Object.entries(patch)) {
    const column = columns[field]
    if (!column || value === undefined) continue
    const [name, encode, cast] = column
    params.push(encode(value as never))
    sets.push(`${name} = $${params.length}::${cast}`)
  }
  return sets
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
