import type { AgentEvent, AgentJobStatus } from '../../shared/agent.ts'
import type { Source } from '../../shared/assistant.ts'
import type { AnalyticsStore } from './analytics-types.ts'

export type * from './analytics-types.ts'

export type KeyKind = 'admin' | 'assistant'

export interface KeyRecord {
  id: string
  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  hash: string
  kind: KeyKind
  organization: string
  /** Assistant keys belong to one project; admin keys to the whole organization (null). */
  projectId: string | null
  name: string | null
  /** Last four characters, to tell keys apart in listings. */
  last4: string
  createdAt: Date
  expiresAt: Date | null
  revokedAt: Date | null
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

export interface FeedbackRecord {
  threadId: string
  messageId: string
  rating: 'up' | 'down'
  comment?: string
  createdAt: Date
}

export interface Page<T> {
  items: T[]
  nextCursor: string | null
}

export interface PageRequest {
  limit: number
  cursor?: string
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

  // Keys
  insertKey(key: KeyRecord): Promise<void>
  findKeyByHash(hash: string): Promise<KeyRecord | null>
  listKeys(organization?: string): Promise<KeyRecord[]>
  /** Revokes a key by id; false when there is no such key or it was already revoked. */
  revokeKey(id: string, at: Date): Promise<boolean>
  countKeys(): Promise<number>

  // Rate-limit counters (fixed windows)
  /** Atomically adds one to the counter and returns the new value; the counter may be dropped after `expiresAt`. */
  incrementCounter(key: string, expiresAt: Date): Promise<number>

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
  listJobEvents(jobId: string): Promise<AgentEvent[]>

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
  /** Most recently updated first. */
  listThreads(projectId: string, page: PageRequest): Promise<Page<ThreadRecord>>
  listMessages(threadId: string): Promise<Array<MessageRecord & { feedback?: Pick<FeedbackRecord, 'rating' | 'comment'> }>>
  /** Records (or replaces) feedback on a message of a thread; false when that message is not in the thread. */
  putFeedback(feedback: FeedbackRecord): Promise<boolean>
}
