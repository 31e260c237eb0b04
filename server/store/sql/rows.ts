import type {
  AutomationRecord,
  AutomationRunRecord,
  CodeChangeRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  RunRecord,
  SessionRecord,
  ThreadRecord,
} from '../types.ts'
import type { Row } from './client.ts'

// Row <-> record mapping. Both drivers parse timestamptz to Date, json to values and integer to number.

export const date = (value: unknown) => (value instanceof Date ? value : new Date(value as string))
export const dateOrNull = (value: unknown) => (value == null ? null : date(value))

/** A JSON parameter: passed as text and cast (`$n::text::json`) so neither driver re-encodes it. */
export const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value))
export const iso = (value: Date | null | undefined) => (value ? value.toISOString() : null)

/**
 * A value as an SQL literal, for statements sent without parameters (`SqlQueries.simple`). Strings become escape
 * strings (`E'...'`, backslashes and quotes doubled), which read the same whatever `standard_conforming_strings` says;
 * U+0000, which PostgreSQL text cannot hold, becomes U+FFFD (JSON text never has one: it is escaped as \u0000).
 */
export function sqlLiteral(value: string | number | null): string {
  if (value === null) return 'NULL'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`)
    return String(value)
  }
  return `E'${value
    .replace(/\u0000/g, '\uFFFD')
    .replace(/\\/g, '\\\\')
    .replace(/'/g, "''")}'`
}

export const keyFromRow = (row: Row): KeyRecord => ({
  id: row.id as string,
  hash: row.hash as string,
  kind: row.kind as KeyRecord['kind'],
  organization: row.organization as string,
  projectId: (row.project_id as string | null) ?? null,
  name: (row.name as string | null) ?? null,
  scope: row.scope === 'read' ? 'read' : 'write',
  last4: row.last4 as string,
  createdAt: date(row.created_at),
  expiresAt: dateOrNull(row.expires_at),
  revokedAt: dateOrNull(row.revoked_at),
})

export const jobFromRow = (row: Row): JobRecord => ({
  id: row.id as string,
  projectId: row.project_id as string,
  status: row.status as JobRecord['status'],
  source: row.source as JobRecord['source'],
  model: row.model as string,
  branch: (row.branch as string | null) ?? null,
  pr: (row.pr as JobRecord['pr']) ?? null,
  error: (row.error as string | null) ?? null,
  conversation: row.conversation as unknown[],
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
  archivedAt: dateOrNull(row.archived_at),
})

/** Record field -> [column, how the value is passed, SQL cast]: the fields a patch may set. */
export type PatchColumns = Record<string, [string, (value: never) => unknown, string]>

/**
 * `UPDATE table SET ... WHERE id = $1 [AND status IN (...)] RETURNING *` for a patch of the given fields; with
 * `ifStatusIn`, a row whose status is not listed is left alone (and no row comes back).
 */
export function patchStatement(table: string, columns: PatchColumns, id: string, patch: object, ifStatusIn?: readonly string[]) {
  const params: unknown[] = [id]
  const sets: string[] = []
  for (const [field, value] of Object.entries(patch)) {
    const column = columns[field]
    if (!column || value === undefined) continue
    const [name, encode, cast] = column
    params.push(encode(value as never))
    sets.push(`${name} = $${params.length}::${cast}`)
  }
  let condition = ''
  if (ifStatusIn) {
    const placeholders = ifStatusIn.map((status) => `$${params.push(status)}`)
    condition = placeholders.length ? ` AND status IN (${placeholders.join(', ')})` : ' AND false'
  }
  return { text: `UPDATE ${table} SET ${sets.join(', ') || 'id = id'} WHERE id = $1${condition} RETURNING *`, params }
}

/** Job fields a patch may set: record field -> [column, how the value is passed, SQL cast]. */
export const jobColumns: PatchColumns = {
  status: ['status', (value: string) => value, 'text'],
  source: ['source', json, 'text::json'],
  model: ['model', (value: string) => value, 'text'],
  branch: ['branch', (value: string | null) => value, 'text'],
  pr: ['pr', json, 'text::json'],
  error: ['error', json, 'text::json'],
  conversation: ['conversation', json, 'text::json'],
  updatedAt: ['updated_at', iso, 'timestamptz'],
  archivedAt: ['archived_at', iso, 'timestamptz'],
}

export const runFromRow = (row: Row): RunRecord => ({
  id: row.id as string,
  jobId: row.job_id as string,
  projectId: row.project_id as string,
  prompt: row.prompt as string,
  seq: row.seq as number,
  status: row.status as RunRecord['status'],
  attempts: row.attempts as number,
  leaseOwner: (row.lease_owner as string | null) ?? null,
  leaseExpiresAt: dateOrNull(row.lease_expires_at),
  createdAt: date(row.created_at),
  finishedAt: dateOrNull(row.finished_at),
  error: (row.error as string | null) ?? null,
})

export const threadFromRow = (row: Row): ThreadRecord => ({
  id: row.id as string,
  projectId: row.project_id as string,
  fp: row.fp as string,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
  messageCount: row.message_count as number,
})

export const messageFromRow = (row: Row): MessageRecord => ({
  id: row.id as string,
  threadId: row.thread_id as string,
  role: row.role as MessageRecord['role'],
  content: row.content as string,
  ...(row.sources != null ? { sources: row.sources as MessageRecord['sources'] } : {}),
  createdAt: date(row.created_at),
})

export const sessionFromRow = (row: Row): SessionRecord => ({
  hash: row.hash as string,
  keyId: row.key_id as string,
  keyHash: row.key_hash as string,
  organization: row.organization as string,
  createdAt: date(row.created_at),
  expiresAt: date(row.expires_at),
})

export const automationFromRow = (row: Row): AutomationRecord => ({
  projectId: row.project_id as string,
  id: row.id as string,
  kind: row.kind as AutomationRecord['kind'],
  name: row.name as string,
  enabled: row.enabled as boolean,
  trigger: row.trigger as AutomationRecord['trigger'],
  mode: row.mode as AutomationRecord['mode'],
  instructions: (row.instructions as string | null) ?? null,
  languages: row.languages as string[],
  prompt: (row.prompt as string | null) ?? null,
  scheduleFrom: dateOrNull(row.schedule_from),
  lastSlot: dateOrNull(row.last_slot),
  contentRevision: (row.content_revision as string | null) ?? null,
  createdAt: date(row.created_at),
  updatedAt: date(row.updated_at),
})

export const automationRunFromRow = (row: Row): AutomationRunRecord => ({
  id: row.id as string,
  projectId: row.project_id as string,
  automationId: row.automation_id as string,
  key: row.key as string,
  reason: row.reason as AutomationRunRecord['reason'],
  startedAt: date(row.started_at),
  jobId: row.job_id as string,
  status: row.status as AutomationRunRecord['status'],
  prLink: (row.pr_link as string | null) ?? null,
  note: (row.note as string | null) ?? null,
  baseCommit: (row.base_commit as string | null) ?? null,
  context: (row.context as Record<string, unknown>) ?? {},
})

/** Automation run fields a patch may set. */
export const automationRunColumns: PatchColumns = {
  status: ['status', (value: string) => value, 'text'],
  prLink: ['pr_link', (value: string | null) => value, 'text'],
  note: ['note', json, 'text::json'],
  baseCommit: ['base_commit', (value: string | null) => value, 'text'],
}

export const codeChangeFromRow = (row: Row): CodeChangeRecord => ({
  projectId: row.project_id as string,
  repository: row.repository as string,
  kind: row.kind as CodeChangeRecord['kind'],
  ref: row.ref as string,
  title: row.title as string,
  body: (row.body as string | null) ?? null,
  labels: row.labels as string[],
  url: (row.url as string | null) ?? null,
  commit: (row.commit_id as string | null) ?? null,
  receivedAt: date(row.received_at),
})
