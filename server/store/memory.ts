import type { AgentEvent } from '../../shared/agent.ts'
import { decodeCursor, encodeCursor, isBefore } from './cursor.ts'
import type {
  AutomationRecord,
  AutomationRunRecord,
  ClaimOptions,
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
} from './types.ts'

const clone = <T>(value: T): T => structuredClone(value)

function pageOf<T extends { id: string }>(items: T[], at: (item: T) => Date, page: PageRequest): Page<T> {
  const sorted = [...items].sort((a, b) => (isBefore({ at: at(a), id: a.id }, { at: at(b), id: b.id }) ? 1 : -1))
  const after = decodeCursor(page.cursor)
  const rest = after ? sorted.filter((item) => isBefore({ at: at(item), id: item.id }, after)) : sorted
  const slice = rest.slice(0, page.limit)
  const last = slice.at(-1)
  return { items: slice.map(clone), nextCursor: rest.length > page.limit && last ? encodeCursor(at(last), last.id) : null }
}

/** In-process store for tests and single-process use; JavaScript's single thread makes each call atomic. */
export class MemoryStore implements Store {
  readonly kind = 'memory'
  private keys = new Map<string, KeyRecord>()
  private sessions = new Map<string, SessionRecord>()
  private counters = new Map<string, { value: number; expiresAt: Date }>()
  private jobs = new Map<string, JobRecord>()
  private events = new Map<string, AgentEvent[]>()
  private runs = new Map<string, RunRecord>()
  private threads = new Map<string, ThreadRecord>()
  private messages = new Map<string, MessageRecord[]>()
  private feedback = new Map<string, FeedbackRecord>()
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

  async incrementCounter(key: string, expiresAt: Date) {
    const now = Date.now()
    if (this.counters.size > 10_000) {
      for (const [name, counter] of this.counters) if (counter.expiresAt.getTime() < now) this.counters.delete(name)
    }
    const counter = this.counters.get(key)
    if (!counter || counter.expiresAt.getTime() < now) {
      this.counters.set(key, { value: 1, expiresAt })
      return 1
    }
    counter.value += 1
    return counter.value
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
    return pageOf(jobs, (job) => job.createdAt, page)
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
  async listThreads(projectId: string, page: PageRequest) {
    const threads = [...this.threads.values()].filter((thread) => thread.projectId === projectId)
    return pageOf(threads, (thread) => thread.updatedAt, page)
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
    this.feedback.set(`${feedback.threadId}:${feedback.messageId}`, clone(feedback))
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
    return pageOf(runs, (run) => run.startedAt, page)
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
}
