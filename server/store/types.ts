import type { AgentEvent, AgentJobStatus } from '../../shared/agent.ts'
import type { Source } from '../../shared/assistant.ts'
import type { AutomationMode, AutomationRunStatus, AutomationTrigger, RunReason } from '../../shared/automations.ts'
import type { AnalyticsStore } from './analytics-types.ts'

export type * from './analytics-types.ts'

export type KeyKind = 'admin' | 'assistant'
/** What an admin key may do: `write` (everything, the default) or `read` (every GET; any change is refused with 403). */
export type KeyScope = 'read' | 'write'

export interface KeyRecord {
  id: string
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string
  kind: KeyKind
  organization: string
  /** Assistant keys belong to one project; admin keys to the whole organization (null). */
  projectId: string | null
  name: string | null
  /** Admin keys: `read` or `write`. Assistant keys are always `write` (their endpoints are the assistant's own). */
  scope: KeyScope
  /** Last four characters, to tell keys apart in listings. */
  last4: string
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
}

/**
 * A console sign-in: the cookie holds a random id, the store only its SHA-256 hash. The session acts with the key it
 * was made from (found again by `keyHash` on every request), so revoking or expiring that key ends the session too.
 */
export interface SessionRecord {
  /** SHA-256 of the session id the cookie holds, hex. */
  hash: string
  keyId: string
  keyHash: string
  organization: string
  createdAt: Date
  expiresAt: Date
}

export interface PullRequestRef {
  /** Host-specific number or id (GitHub PR number, GitLab MR iid, local: the job id). */
  number: string
  url: string
}

export interface JobRecord {
  id: string
  projectId: string
  status: AgentJobStatus
  source: { repository: string; ref: string | null }
  model: string
  /** Branch the agent pushes to (`docent/<slug>-<short id>`), set by the first run. */
  branch: string | null
  /** The PR opened for this job; kept across runs so a follow-up updates it. The API hides it while active. */
  pr: PullRequestRef | null
  error: string | null
  /** The agent conversation (model messages), so a follow-up continues it. */
  conversation: unknown[]
  createdAt: Date
  updatedAt: Date
  archivedAt: Date | null
}

export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled'

export interface RunRecord {
  id: string
  jobId: string
  projectId: string
  prompt: string
  /** Order of runs within a job: a run is only claimable when all earlier runs of its job have ended. */
  seq: number
  status: RunStatus
  /** How many times the run was claimed: more than one means an earlier claim's lease expired. */
  attempts: number
  leaseOwner: string | null
  leaseExpiresAt: Date | null
  createdAt: Date
  finishedAt: Date | null
  error: string | null
}

export interface ThreadRecord {
  id: string
  projectId: string
  fp: string
  createdAt: Date
  updatedAt: Date
  messageCount: number
}

export interface MessageRecord {
  id: string
  threadId: string
  role: 'user' | 'assistant'
  content: string
  sources?: Source[]
  createdAt: Date
}

/** One batch item of `saveThreads`: messages for a thread, which is created (as `thread`) if it is not stored yet. */
export interface ThreadWrite {
  thread: ThreadRecord
  messages: MessageRecord[]
  at: Date
}

export interface FeedbackRecord {
  threadId: string
  messageId: string
  rating: 'up' | 'down'
  comment?: string
  createdAt: Date
}

/**
 * An automation's settings in a project. Predefined automations exist without a record (disabled, their default
 * settings) until someone changes them; custom ones are created with a record.
 */
export interface AutomationRecord {
  projectId: string
  id: string
  kind: 'predefined' | 'custom'
  name: string
  enabled: boolean
  trigger: AutomationTrigger
  mode: AutomationMode
  instructions: string | null
  languages: string[]
  /** Custom automations: what the agent is asked to do. */
  prompt: string | null
  /**
   * Where the schedule starts counting: set when the automation is turned on or its trigger changes, so slots from
   * before (while it was off) never run.
   */
  scheduleFrom: Date | null
  /** The last scheduled slot claimed; slots up to it never run again (a cache: slot claims are what make it once). */
  lastSlot: Date | null
  /** The docs revision a content trigger last acted on (or saw when it was turned on). */
  contentRevision: string | null
  createdAt: Date
  updatedAt: Date
}

/** One run of an automation. Its id is the id of the agent run that carries it out, in the job `jobId`. */
export interface AutomationRunRecord {
  id: string
  projectId: string
  automationId: string
  /**
   * What the run is for, unique per automation: `schedule:<slot ISO>`, `content:<revision>`, `code:<repo>#<number>`,
   * `manual:<id>`. A second run with the same key is refused by the store: that is what makes triggers fire once.
   */
  key: string
  reason: RunReason
  startedAt: Date
  jobId: string
  status: AutomationRunStatus
  prLink: string | null
  note: string | null
  /** The commit of the docs' base branch the run started from (the next run's "since"). */
  baseCommit: string | null
  /** What the trigger handed the run (the slot, the revision, the merged changes), as JSON. */
  context: Record<string, unknown>
}

/** A merged pull/merge request of a code repository, or a commit pushed to a repository, as a webhook reported it. */
export interface CodeChangeRecord {
  projectId: string
  /** `owner/name` (GitHub) or `group/name` (GitLab). */
  repository: string
  kind: 'pull_request' | 'commit'
  /** The pull request's number, or the commit id: unique per repository and kind. */
  ref: string
  title: string
  body: string | null
  labels: string[]
  url: string | null
  /** The merge commit, or the commit itself. */
  commit: string | null
  receivedAt: Date
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

export interface PageRequest {
  limit: number
  cursor?: string
}

export interface CounterLimit {
  /** The counter's name: one per rule, subject and window (`rl:ip-day:10.0.0.1:2026-02-15T00:00:00.000Z`). */
  key: string
  limit: number
  /** The end of the counter's window: it may be dropped after. */
  expiresAt: Date
}

export interface Admission {
  admitted: boolean
  /** Each counter's value after the call, in the order given: one more than before when admitted, unchanged when not. */
  counts: number[]
}

export interface ClaimOptions {
  owner: string
  leaseMs: number
  now: Date
}

/**
 * Everything Docent keeps. Every adapter passes the same conformance suite (`conformance.ts`).
 * Counters and run claims must be atomic: several server instances share one store.
 */
export interface Store extends AnalyticsStore {
  readonly kind: string
  close(): Promise<void>
  /** Resolves once the store answers a trivial request (readiness); rejects when it cannot. */
  ping(): Promise<void>

  // Keys
  insertKey(key: KeyRecord): Promise<void>
  findKeyByHash(hash: string): Promise<KeyRecord | null>
  listKeys(organization?: string): Promise<KeyRecord[]>
  /** Revokes a key by id; false when there is no such key or it was already revoked. */
  revokeKey(id: string, at: Date): Promise<boolean>
  countKeys(): Promise<number>

  // Console sessions
  insertSession(session: SessionRecord): Promise<void>
  /** The session with this id hash, expired or not (the caller checks `expiresAt`); null when there is none. */
  findSession(hash: string): Promise<SessionRecord | null>
  /** Ends a session (sign-out); false when there was none. */
  deleteSession(hash: string): Promise<boolean>
  /** Drops sessions that expired before `now`; returns how many. */
  deleteExpiredSessions(now: Date): Promise<number>

  // Rate-limit counters (fixed windows)
  /**
   * Checks every counter against its limit and, only when all have room, adds one to each: atomically, so a refused
   * request counts nowhere and concurrent callers (other instances too) never overshoot a limit. A counter whose
   * `expiresAt` has passed (by `now`) counts from zero again.
   */
  admit(counters: CounterLimit[], now: Date): Promise<Admission>

  // Agent jobs
  insertJob(job: JobRecord): Promise<void>
  getJob(projectId: string, id: string): Promise<JobRecord | null>
  /**
   * Applies `patch` and returns the new record; when `ifStatusIn` is given and the job's status is not in it,
   * nothing changes and null is returned (so a finishing run cannot overwrite an archive).
   */
  updateJob(
    id: string,
    patch: Partial<Omit<JobRecord, 'id' | 'projectId' | 'createdAt'>>,
    options?: { ifStatusIn?: AgentJobStatus[] },
  ): Promise<JobRecord | null>
  /** Newest first. */
  listJobs(projectId: string, page: PageRequest): Promise<Page<JobRecord>>
  appendJobEvent(jobId: string, event: AgentEvent): Promise<void>
  /** Oldest first; `after` skips that many (a live view asks only for what it has not seen). */
  listJobEvents(jobId: string, options?: { after?: number }): Promise<AgentEvent[]>

  // Run queue
  /** Appends a run to its job's queue; `seq` is assigned by the store. */
  enqueueRun(
    run: Omit<RunRecord, 'seq' | 'status' | 'attempts' | 'leaseOwner' | 'leaseExpiresAt' | 'finishedAt' | 'error'>,
  ): Promise<RunRecord>
  /**
   * Claims the oldest claimable run: queued, or running with an expired lease, and no earlier run of the same job
   * still queued or running. Sets status running, the lease, and attempts + 1. Null when nothing is claimable.
   */
  claimRun(options: ClaimOptions): Promise<RunRecord | null>
  /** Extends the lease; false when the run is no longer this owner's or no longer running (cancelled). */
  renewLease(runId: string, owner: string, leaseMs: number, now: Date): Promise<boolean>
  /** Ends a run held by `owner`; false when the owner lost it. */
  finishRun(runId: string, owner: string, status: 'done' | 'failed', error?: string | null): Promise<boolean>
  /** Cancels every queued or running run of a job; returns how many. */
  cancelRuns(jobId: string): Promise<number>
  /** Runs of a job not yet ended (queued or running). */
  countOpenRuns(jobId: string): Promise<number>
  listRuns(jobId: string): Promise<RunRecord[]>

  // Assistant threads
  createThread(thread: ThreadRecord): Promise<void>
  getThread(projectId: string, id: string): Promise<ThreadRecord | null>
  /** Appends messages and bumps updatedAt and messageCount, atomically. */
  appendMessages(threadId: string, messages: MessageRecord[], at: Date): Promise<void>
  /**
   * Writes many threads' messages at once (the assistant batches the writes of concurrent answers): each thread is
   * created first when missing, its messages appended in order, messageCount and updatedAt bumped. One transaction
   * where the store has them.
   */
  saveThreads(writes: ThreadWrite[]): Promise<void>
  /** Most recently updated first. */
  listThreads(projectId: string, page: PageRequest): Promise<Page<ThreadRecord>>
  listMessages(threadId: string): Promise<Array<MessageRecord & { feedback?: Pick<FeedbackRecord, 'rating' | 'comment'> }>>
  /** Records (or replaces) feedback on a message of a thread; false when that message is not in the thread. */
  putFeedback(feedback: FeedbackRecord): Promise<boolean>

  // Automations
  getAutomation(projectId: string, id: string): Promise<AutomationRecord | null>
  /** Oldest first. */
  listAutomations(projectId: string): Promise<AutomationRecord[]>
  /** Inserts or replaces the record of (projectId, id). */
  putAutomation(automation: AutomationRecord): Promise<void>
  /** False when there was none. Its runs stay (their jobs are jobs like any other). */
  deleteAutomation(projectId: string, id: string): Promise<boolean>
  /**
   * Starts an automation run, atomically: records it unless a run of the same automation already has its `key`
   * (then nothing changes and null is returned), inserts `job` when given (a new job; else the run continues
   * `run.jobId`), and queues the agent run `{ id: run.id, jobId, prompt }` behind the job's other runs.
   */
  startAutomationRun(input: { run: AutomationRunRecord; job: JobRecord | null; prompt: string }): Promise<AutomationRunRecord | null>
  getAutomationRun(projectId: string, id: string): Promise<AutomationRunRecord | null>
  updateAutomationRun(
    id: string,
    patch: Partial<Pick<AutomationRunRecord, 'status' | 'prLink' | 'note' | 'baseCommit'>>,
  ): Promise<AutomationRunRecord | null>
  /** Newest first (by `startedAt`, then id). */
  listAutomationRuns(projectId: string, automationId: string, page: PageRequest): Promise<Page<AutomationRunRecord>>

  // Code changes reported by webhooks
  /** False when that change (project, repository, kind, ref) was recorded already (a redelivery). */
  recordCodeChange(change: CodeChangeRecord): Promise<boolean>
  /** Changes received in `(after, until]`, oldest first, at most `limit`. */
  listCodeChanges(projectId: string, window: { after: Date; until: Date; limit: number }): Promise<CodeChangeRecord[]>
}
