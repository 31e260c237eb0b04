import { describe, expect, test } from 'vitest'
import { describeAnalyticsConformance } from './conformance-analytics.ts'
import type {
  AutomationRecord,
  AutomationRunRecord,
  CodeChangeRecord,
  JobRecord,
  KeyRecord,
  MessageRecord,
  SessionRecord,
  Store,
  ThreadRecord,
} from './types.ts'

const vitest: SuiteApi = { describe, test }

let counter = 0
export const uid = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${crypto.randomUUID().slice(0, 8)}`

export const sampleKey = (overrides: Partial<KeyRecord> = {}): KeyRecord => ({
  id: uid('key'),
  hash: uid('hash'),
  kind: 'admin',
  organization: uid('org'),
  projectId: null,
  name: 'ci',
  scope: 'write',
  last4: 'abcd',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: null,
  revokedAt: null,
  ...overrides,
})

export const sampleJob = (overrides: Partial<JobRecord> = {}): JobRecord => ({
  id: uid('job'),
  projectId: uid('project'),
  status: 'active',
  source: { repository: 'https://git.example/docs.git', ref: 'main' },
  model: 'offline-editor',
  branch: null,
  pr: null,
  error: null,
  conversation: [],
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  archivedAt: null,
  ...overrides,
})

export const sampleThread = (overrides: Partial<ThreadRecord> = {}): ThreadRecord => ({
  id: uid('thread'),
  projectId: uid('project'),
  fp: 'anonymous',
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  messageCount: 0,
  ...overrides,
})

export const sampleAutomation = (overrides: Partial<AutomationRecord> = {}): AutomationRecord => ({
  projectId: uid('project'),
  id: 'fix-broken-links',
  kind: 'predefined',
  name: 'Fix broken links',
  enabled: true,
  trigger: { kind: 'schedule', cron: '0 9 * * mon', timeZone: 'Europe/Paris' },
  mode: 'pull_request',
  instructions: null,
  languages: [],
  prompt: null,
  scheduleFrom: new Date('2026-01-01T00:00:00Z'),
  lastSlot: null,
  contentRevision: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...overrides,
})

export const sampleAutomationRun = (overrides: Partial<AutomationRunRecord> = {}): AutomationRunRecord => ({
  id: uid('run'),
  projectId: uid('project'),
  automationId: 'fix-broken-links',
  key: uid('schedule:'),
  reason: 'schedule',
  startedAt: new Date('2026-01-05T08:00:00Z'),
  jobId: uid('job'),
  status: 'active',
  prLink: null,
  note: null,
  baseCommit: null,
  context: {},
  ...overrides,
})

export const message = (threadId: string, role: 'user' | 'assistant', content: string, at: Date): MessageRecord => ({
  id: uid('msg'),
  threadId,
  role,
  content,
  createdAt: at,
})

/** The test functions the suite registers its tests with: vitest's, or `deno test`'s (see denokv_test.ts). */
export interface SuiteApi {
  describe(name: string, body: () => void): void
  test(name: string, body: () => Promise<void>): void
}

/**
 * The behaviour every Store adapter must have. `open` may return the same instance each time
 * (tests use unique ids); `reopen`, when given, must return a fresh instance over the same data.
 */
export function describeStoreConformance(
  name: string,
  open: () => Promise<Store>,
  reopen?: () => Promise<Store>,
  { describe, test }: SuiteApi = vitest,
) {
  describe(`store conformance: ${name}`, () => {
    test('keys: insert, find by hash, list by organization, revoke once', async () => {
      const store = await open()
      const key = sampleKey({ expiresAt: new Date('2030-01-01T00:00:00Z') })
      await store.insertKey(key)
      expect(await store.findKeyByHash(key.hash)).toEqual(key)
      expect(await store.findKeyByHash('missing')).toBeNull()
      const other = sampleKey({ kind: 'assistant', organization: key.organization, projectId: 'docs' })
      await store.insertKey(other)
      expect((await store.listKeys(key.organization)).map((k) => k.id).sort()).toEqual([key.id, other.id].sort())
      expect(await store.countKeys()).toBeGreaterThanOrEqual(2)
      const at = new Date('2026-02-01T00:00:00Z')
      expect(await store.revokeKey(key.id, at)).toBe(true)
      expect(await store.revokeKey(key.id, at)).toBe(false)
      expect((await store.findKeyByHash(key.hash))?.revokedAt).toEqual(at)
      expect(await store.revokeKey('no-such-key', at)).toBe(false)
    })

    test('keys keep their scope', async () => {
      const store = await open()
      const read = sampleKey({ scope: 'read' })
      await store.insertKey(read)
      expect((await store.findKeyByHash(read.hash))?.scope).toBe('read')
      expect((await store.listKeys(read.organization)).map((key) => key.scope)).toEqual(['read'])
    })

    test('sessions: insert, find by hash, delete once, expired ones purged', async () => {
      const store = await open()
      const key = sampleKey()
      const session = (overrides: Partial<SessionRecord> = {}): SessionRecord => ({
        hash: uid('session'),
        keyId: key.id,
        keyHash: key.hash,
        organization: key.organization,
        createdAt: new Date(Date.now() - 1000),
        expiresAt: new Date(Date.now() + 12 * 3_600_000),
        ...overrides,
      })
      const live = session()
      const old = session({ createdAt: new Date(Date.now() - 86_400_000), expiresAt: new Date(Date.now() - 3_600_000) })
      await store.insertSession(live)
      await store.insertSession(old)
      expect(await store.findSession(live.hash)).toEqual(live)
      expect(await store.findSession('no-such-session')).toBeNull()
      expect(await store.findSession('no\u0000such')).toBeNull()
      expect(await store.deleteExpiredSessions(new Date())).toBeGreaterThanOrEqual(0)
      expect(await store.findSession(old.hash)).toBeNull()
      expect(await store.findSession(live.hash)).toEqual(live)
      expect(await store.deleteSession(live.hash)).toBe(true)
      expect(await store.deleteSession(live.hash)).toBe(false)
      expect(await store.findSession(live.hash)).toBeNull()
    })

    test('admit: concurrent callers never overshoot a limit, and refused calls count nowhere', async () => {
      const store = await open()
      const name = uid('counter')
      const expiresAt = new Date(Date.now() + 60_000)
      const results = await Promise.all(Array.from({ length: 50 }, () => store.admit([{ key: name, limit: 30, expiresAt }], new Date())))
      expect(results.filter((r) => r.admitted)).toHaveLength(30)
      expect(
        results
          .filter((r) => r.admitted)
          .map((r) => r.counts[0])
          .sort((a, b) => a! - b!),
      ).toEqual(Array.from({ length: 30 }, (_, i) => i + 1))
      expect(results.filter((r) => !r.admitted).every((r) => r.counts[0] === 30)).toBe(true)
      expect(await store.admit([{ key: uid('counter'), limit: 1, expiresAt }], new Date())).toEqual({ admitted: true, counts: [1] })
    })

    test('admit: all counters or none; a full one refuses without counting the others', async () => {
      const store = await open()
      const [roomy, full] = [uid('counter'), uid('counter')]
      const expiresAt = new Date(Date.now() + 60_000)
      const both = (limit: number) => [
        { key: roomy, limit: 100, expiresAt },
        { key: full, limit, expiresAt },
      ]
      expect(await store.admit(both(2), new Date())).toEqual({ admitted: true, counts: [1, 1] })
      expect(await store.admit(both(2), new Date())).toEqual({ admitted: true, counts: [2, 2] })
      for (let i = 0; i < 5; i++) expect(await store.admit(both(2), new Date())).toEqual({ admitted: false, counts: [2, 2] })
      // The refusals did not count against the roomy counter.
      expect(await store.admit([{ key: roomy, limit: 100, expiresAt }], new Date())).toEqual({ admitted: true, counts: [3] })
    })

    test('admit: an expired counter starts again from zero', async () => {
      const store = await open()
      const name = uid('counter')
      const past = new Date(Date.now() - 1000)
      await store.admit([{ key: name, limit: 1, expiresAt: past }], new Date(Date.now() - 2000))
      const later = { key: name, limit: 1, expiresAt: new Date(Date.now() + 60_000) }
      expect(await store.admit([later], new Date())).toEqual({ admitted: true, counts: [1] })
      expect(await store.admit([later], new Date())).toEqual({ admitted: false, counts: [1] })
    })

    test('jobs: insert, get within project only, conditional update, newest-first pages', async () => {
      const store = await open()
      const projectId = uid('project')
      const jobs = [0, 1, 2, 3, 4].map((i) => sampleJob({ projectId, createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) }))
      for (const job of jobs) await store.insertJob(job)
      expect(await store.getJob(projectId, jobs[0]!.id)).toEqual(jobs[0])
      expect(await store.getJob('other-project', jobs[0]!.id)).toBeNull()

      const updated = await store.updateJob(jobs[0]!.id, {
        status: 'completed',
        pr: { number: '7', url: 'https://x/7' },
        conversation: [{ role: 'user', content: 'hi' }],
      })
      expect(updated).toMatchObject({
        status: 'completed',
        pr: { number: '7', url: 'https://x/7' },
        conversation: [{ role: 'user', content: 'hi' }],
      })
      expect(await store.updateJob(jobs[0]!.id, { status: 'failed' }, { ifStatusIn: ['active'] })).toBeNull()
      expect((await store.getJob(projectId, jobs[0]!.id))?.status).toBe('completed')
      expect(await store.updateJob('missing', { status: 'failed' })).toBeNull()

      const first = await store.listJobs(projectId, { limit: 2 })
      expect(first.items.map((j) => j.id)).toEqual([jobs[4]!.id, jobs[3]!.id])
      const second = await store.listJobs(projectId, { limit: 2, cursor: first.nextCursor! })
      expect(second.items.map((j) => j.id)).toEqual([jobs[2]!.id, jobs[1]!.id])
      const third = await store.listJobs(projectId, { limit: 2, cursor: second.nextCursor! })
      expect(third.items.map((j) => j.id)).toEqual([jobs[0]!.id])
      expect(third.nextCursor).toBeNull()
    })

    test('job events keep their order', async () => {
      const store = await open()
      const jobId = uid('job')
      for (let i = 0; i < 5; i++) {
        await store.appendJobEvent(jobId, {
          at: new Date().toISOString(),
          type: 'file.read',
          message: `read ${i}`,
          data: { path: `p${i}.mdx` },
        })
      }
      const events = await store.listJobEvents(jobId)
      expect(events.map((e) => e.message)).toEqual(['read 0', 'read 1', 'read 2', 'read 3', 'read 4'])
      expect(events[2]!.data).toEqual({ path: 'p2.mdx' })
      expect((await store.listJobEvents(jobId, { after: 3 })).map((e) => e.message)).toEqual(['read 3', 'read 4'])
      expect(await store.listJobEvents(jobId, { after: 5 })).toEqual([])
      expect((await store.listJobEvents(jobId, { after: 0 })).length).toBe(5)
    })

    test('runs: per-job order, one claim each, leases, retry after expiry, cancel', async () => {
      const store = await open()
      // Runs left by other tests on a shared instance must not be claimed here: use a far-past clock.
      const job = sampleJob()
      await store.insertJob(job)
      const t0 = new Date(Date.now() + 1000 * 60 * 60 * 24 * 365 * 50)
      const mk = (i: number) =>
        store.enqueueRun({
          id: uid('run'),
          jobId: job.id,
          projectId: job.projectId,
          prompt: `p${i}`,
          createdAt: new Date(Date.UTC(2001, 0, 1, 0, 0, i)),
        })
      const r1 = await mk(1)
      const r2 = await mk(2)
      expect([r1.seq, r2.seq]).toEqual([1, 2])
      expect(r1.status).toBe('queued')
      expect(await store.countOpenRuns(job.id)).toBe(2)

      const claimed = await claimOwn(store, job.id, 'w1', 60_000, t0)
      expect(claimed?.id).toBe(r1.id)
      expect(claimed?.attempts).toBe(1)
      // The second run waits for the first.
      expect(await claimOwn(store, job.id, 'w2', 60_000, t0)).toBeNull()
      expect(await store.renewLease(r1.id, 'w2', 60_000, t0)).toBe(false)
      expect(await store.renewLease(r1.id, 'w1', 60_000, t0)).toBe(true)

      // Lease expiry: another worker takes the same run over, as a second attempt.
      const later = new Date(t0.getTime() + 120_000)
      const retaken = await claimOwn(store, job.id, 'w2', 60_000, later)
      expect(retaken?.id).toBe(r1.id)
      expect(retaken?.attempts).toBe(2)
      expect(await store.finishRun(r1.id, 'w1', 'done')).toBe(false)
      expect(await store.finishRun(r1.id, 'w2', 'done')).toBe(true)

      const next = await claimOwn(store, job.id, 'w1', 60_000, later)
      expect(next?.id).toBe(r2.id)
      expect(await store.cancelRuns(job.id)).toBe(1)
      expect(await store.renewLease(r2.id, 'w1', 60_000, later)).toBe(false)
      expect(await store.countOpenRuns(job.id)).toBe(0)
      expect((await store.listRuns(job.id)).map((r) => r.status)).toEqual(['done', 'cancelled'])
    })

    test('runs: concurrent claims hand each run to one worker', async () => {
      const store = await open()
      const jobs = [sampleJob(), sampleJob(), sampleJob()]
      const now = new Date(Date.now() + 1000 * 60 * 60 * 24 * 365 * 60)
      const ids = new Set<string>()
      for (const job of jobs) {
        await store.insertJob(job)
        const run = await store.enqueueRun({
          id: uid('run'),
          jobId: job.id,
          projectId: job.projectId,
          prompt: 'x',
          createdAt: new Date(Date.UTC(2000, 0, 1)),
        })
        ids.add(run.id)
      }
      const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => drainOwn(store, ids, `w${i}`, now)))
      const claimed = claims.flat()
      expect(claimed.sort()).toEqual([...ids].sort())
    })

    test('threads: messages, counts, pages by last update, feedback', async () => {
      const store = await open()
      const projectId = uid('project')
      const a = sampleThread({ projectId, createdAt: new Date('2026-01-01T00:00:00Z'), updatedAt: new Date('2026-01-01T00:00:00Z') })
      const b = sampleThread({ projectId, createdAt: new Date('2026-01-02T00:00:00Z'), updatedAt: new Date('2026-01-02T00:00:00Z') })
      await store.createThread(a)
      await store.createThread(b)
      expect(await store.getThread(projectId, a.id)).toEqual(a)
      expect(await store.getThread('other', a.id)).toBeNull()

      const at = new Date('2026-01-03T00:00:00Z')
      const question = message(a.id, 'user', 'How do I install?', at)
      const answer = {
        ...message(a.id, 'assistant', 'Run npm install.', at),
        sources: [{ title: 'Install', path: 'install', url: '/install#npm' }],
      }
      await store.appendMessages(a.id, [question, answer], at)
      const thread = await store.getThread(projectId, a.id)
      expect(thread?.messageCount).toBe(2)
      expect(thread?.updatedAt).toEqual(at)

      const page = await store.listThreads(projectId, { limit: 1 })
      expect(page.items.map((t) => t.id)).toEqual([a.id])
      const rest = await store.listThreads(projectId, { limit: 1, cursor: page.nextCursor! })
      expect(rest.items.map((t) => t.id)).toEqual([b.id])
      expect(rest.nextCursor).toBeNull()

      expect(await store.putFeedback({ threadId: a.id, messageId: answer.id, rating: 'down', comment: 'wrong', createdAt: at })).toBe(true)
      expect(await store.putFeedback({ threadId: a.id, messageId: answer.id, rating: 'up', createdAt: at })).toBe(true)
      expect(await store.putFeedback({ threadId: a.id, messageId: 'nope', rating: 'up', createdAt: at })).toBe(false)
      const messages = await store.listMessages(a.id)
      expect(messages.map((m) => m.content)).toEqual(['How do I install?', 'Run npm install.'])
      expect(messages[1]!.sources).toEqual(answer.sources)
      expect(messages[1]!.feedback).toEqual({ rating: 'up' })
      expect(messages[0]!.feedback).toBeUndefined()
    })

    test('runs: enqueues racing on one job get distinct consecutive seq numbers', async () => {
      const store = await open()
      const job = sampleJob()
      await store.insertJob(job)
      // Far-past createdAt and finished at once, so no other test of a shared store can claim them.
      const runs = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.enqueueRun({
            id: uid('run'),
            jobId: job.id,
            projectId: job.projectId,
            prompt: `p${i}`,
            createdAt: new Date(Date.UTC(2002, 0, 1)),
          }),
        ),
      )
      expect(runs.map((run) => run.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
      expect((await store.listRuns(job.id)).map((run) => run.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1))
      expect(await store.cancelRuns(job.id)).toBe(10)
    })

    test('any text survives unchanged, and lookups of impossible ids find nothing', async () => {
      const store = await open()
      const odd = 'nul \u0000 quote \' " backslash \\ emoji 🦊 rtl \u202e end'
      const job = sampleJob({ conversation: [{ role: 'user', content: odd }], error: odd })
      await store.insertJob(job)
      expect(await store.getJob(job.projectId, job.id)).toEqual(job)
      const run = await store.enqueueRun({
        id: uid('run'),
        jobId: job.id,
        projectId: job.projectId,
        prompt: odd,
        createdAt: new Date(Date.UTC(2003, 0, 1)),
      })
      expect((await store.listRuns(job.id))[0]?.prompt).toBe(odd)
      expect(await store.cancelRuns(job.id)).toBe(1)
      await store.appendJobEvent(job.id, { at: new Date().toISOString(), type: 'file.read', message: odd })
      expect((await store.listJobEvents(job.id))[0]?.message).toBe(odd)

      const thread = sampleThread()
      await store.createThread(thread)
      const at = new Date('2026-01-04T00:00:00Z')
      const question = message(thread.id, 'user', odd, at)
      await store.appendMessages(thread.id, [question], at)
      expect(await store.putFeedback({ threadId: thread.id, messageId: question.id, rating: 'down', comment: odd, createdAt: at })).toBe(
        true,
      )
      const [stored] = await store.listMessages(thread.id)
      expect(stored).toMatchObject({ content: odd, feedback: { rating: 'down', comment: odd } })

      const impossible = 'no\u0000such'
      expect(await store.getJob(job.projectId, impossible)).toBeNull()
      expect(await store.getThread(thread.projectId, impossible)).toBeNull()
      expect(await store.findKeyByHash(impossible)).toBeNull()
      expect(await store.listMessages(impossible)).toEqual([])
      expect(await store.putFeedback({ threadId: thread.id, messageId: impossible, rating: 'up', createdAt: at })).toBe(false)
      expect(await store.renewLease(run.id, impossible, 1000, at)).toBe(false)
      const forged = btoa(`2000-01-01T00:00:00.000Z|${impossible}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
      expect((await store.listThreads(thread.projectId, { limit: 5, cursor: forged })).items).toEqual([])
      expect((await store.listJobs(job.projectId, { limit: 5, cursor: forged })).items).toEqual([])
    })

    test('threads: messages need an existing thread; feedback needs a message of that thread', async () => {
      const store = await open()
      const at = new Date('2026-01-05T00:00:00Z')
      await expect(store.appendMessages(uid('thread'), [message(uid('thread'), 'user', 'hi', at)], at)).rejects.toThrow()
      const a = sampleThread()
      const b = sampleThread({ projectId: a.projectId })
      await store.createThread(a)
      await store.createThread(b)
      const inA = message(a.id, 'user', 'in a', at)
      await store.appendMessages(a.id, [inA], at)
      expect(await store.putFeedback({ threadId: b.id, messageId: inA.id, rating: 'up', createdAt: at })).toBe(false)
      expect(await store.listMessages(b.id)).toEqual([])
      expect((await store.getThread(b.projectId, b.id))?.messageCount).toBe(0)
      expect(await store.listThreads(uid('project'), { limit: 10 })).toEqual({ items: [], nextCursor: null })
    })

    test('automations: settings per project, upserted, listed oldest first, custom ones deleted', async () => {
      const store = await open()
      const projectId = uid('project')
      expect(await store.listAutomations(projectId)).toEqual([])
      expect(await store.getAutomation(projectId, 'fix-typos')).toBeNull()
      const links = sampleAutomation({ projectId })
      const custom = sampleAutomation({
        projectId,
        id: uid('auto'),
        kind: 'custom',
        name: 'Weekly tidy',
        trigger: { kind: 'code', repositories: ['acme/api'] },
        mode: 'direct',
        instructions: 'Keep it short \u0000 🦊',
        languages: ['fr', 'pt-BR'],
        prompt: 'Tidy the quickstart',
        lastSlot: new Date('2026-01-05T08:00:00Z'),
        contentRevision: 'abc123',
        createdAt: new Date('2026-01-02T00:00:00Z'),
      })
      await store.putAutomation(custom)
      await store.putAutomation(links)
      expect(await store.getAutomation(projectId, custom.id)).toEqual(custom)
      expect((await store.listAutomations(projectId)).map((a) => a.id)).toEqual([links.id, custom.id])
      expect(await store.listAutomations(uid('project'))).toEqual([])
      const disabled = { ...links, enabled: false, trigger: { kind: 'content' as const }, updatedAt: new Date('2026-01-03T00:00:00Z') }
      await store.putAutomation(disabled)
      expect(await store.getAutomation(projectId, links.id)).toEqual(disabled)
      expect(await store.deleteAutomation(projectId, custom.id)).toBe(true)
      expect(await store.deleteAutomation(projectId, custom.id)).toBe(false)
      expect((await store.listAutomations(projectId)).map((a) => a.id)).toEqual([links.id])
    })

    test('automation runs: a key runs once, with its new job and queued agent run, or as a follow-up', async () => {
      const store = await open()
      const projectId = uid('project')
      const job = sampleJob({ projectId, createdAt: new Date(Date.UTC(2004, 0, 1)) })
      const first = sampleAutomationRun({
        projectId,
        jobId: job.id,
        key: 'schedule:2026-01-05T08:00:00.000Z',
        startedAt: new Date(Date.UTC(2004, 0, 1)),
        context: { slot: '2026-01-05T08:00:00.000Z', changes: [{ title: 'odd \u0000 "text"' }] },
      })
      expect(await store.startAutomationRun({ run: first, job, prompt: 'Fix broken links' })).toEqual(first)
      expect(await store.getJob(projectId, job.id)).toEqual(job)
      const [queued] = await store.listRuns(job.id)
      expect(queued).toMatchObject({ id: first.id, jobId: job.id, projectId, prompt: 'Fix broken links', seq: 1, status: 'queued' })

      // The same key again (another instance, or after a restart): refused, and nothing else is written.
      const again = sampleAutomationRun({ projectId, key: first.key, jobId: uid('job') })
      const otherJob = sampleJob({ projectId, id: again.jobId })
      expect(await store.startAutomationRun({ run: again, job: otherJob, prompt: 'x' })).toBeNull()
      expect(await store.getJob(projectId, otherJob.id)).toBeNull()
      expect(await store.getAutomationRun(projectId, again.id)).toBeNull()
      expect(await store.listRuns(otherJob.id)).toEqual([])

      // The same key for another automation is another claim; a follow-up continues the job.
      const followUp = sampleAutomationRun({
        projectId,
        jobId: job.id,
        key: 'content:abc',
        reason: 'content',
        startedAt: new Date(Date.UTC(2004, 0, 2)),
      })
      expect(await store.startAutomationRun({ run: followUp, job: null, prompt: 'Fix them again' })).toEqual(followUp)
      const sameKeyElsewhere = sampleAutomationRun({ projectId, automationId: 'fix-typos', key: first.key, jobId: uid('job') })
      expect(
        await store.startAutomationRun({ run: sameKeyElsewhere, job: sampleJob({ projectId, id: sameKeyElsewhere.jobId }), prompt: 'y' }),
      ).not.toBeNull()
      expect((await store.listRuns(job.id)).map((run) => [run.id, run.seq])).toEqual([
        [first.id, 1],
        [followUp.id, 2],
      ])
      for (const id of [job.id, sameKeyElsewhere.jobId]) await store.cancelRuns(id)

      expect(await store.getAutomationRun(projectId, first.id)).toEqual(first)
      expect(await store.getAutomationRun('other', first.id)).toBeNull()
      const updated = await store.updateAutomationRun(first.id, {
        status: 'completed',
        prLink: 'http://localhost:8787/review/x',
        note: 'fixed 2 links',
        baseCommit: 'c0ffee',
      })
      expect(updated).toEqual({
        ...first,
        status: 'completed',
        prLink: 'http://localhost:8787/review/x',
        note: 'fixed 2 links',
        baseCommit: 'c0ffee',
      })
      expect(await store.updateAutomationRun('no-such-run', { status: 'failed' })).toBeNull()

      const page = await store.listAutomationRuns(projectId, 'fix-broken-links', { limit: 1 })
      expect(page.items.map((run) => run.id)).toEqual([followUp.id])
      const rest = await store.listAutomationRuns(projectId, 'fix-broken-links', { limit: 1, cursor: page.nextCursor! })
      expect(rest.items.map((run) => run.id)).toEqual([first.id])
      expect(rest.nextCursor).toBeNull()
      expect((await store.listAutomationRuns(projectId, 'fix-typos', { limit: 10 })).items.map((run) => run.id)).toEqual([
        sameKeyElsewhere.id,
      ])
    })

    test('automation runs: concurrent claims of one key start one run', async () => {
      const store = await open()
      const projectId = uid('project')
      const attempts = Array.from({ length: 8 }, () => {
        const run = sampleAutomationRun({ projectId, key: 'schedule:2026-02-02T09:00:00.000Z', startedAt: new Date(Date.UTC(2005, 0, 1)) })
        return { run, job: sampleJob({ projectId, id: run.jobId }), prompt: 'p' }
      })
      const results = await Promise.all(attempts.map((attempt) => store.startAutomationRun(attempt)))
      const started = results.filter((result) => result !== null)
      expect(started).toHaveLength(1)
      expect((await store.listAutomationRuns(projectId, 'fix-broken-links', { limit: 10 })).items).toHaveLength(1)
      let jobs = 0
      for (const attempt of attempts) if (await store.getJob(projectId, attempt.job.id)) jobs++
      expect(jobs).toBe(1)
      await store.cancelRuns(started[0]!.jobId)
    })

    test('code changes: recorded once per repository and ref, listed by when they arrived', async () => {
      const store = await open()
      const projectId = uid('project')
      const change = (ref: string, at: string, overrides: Partial<CodeChangeRecord> = {}): CodeChangeRecord => ({
        projectId,
        repository: 'acme/api',
        kind: 'pull_request',
        ref,
        title: `feat: change ${ref}`,
        body: 'body \u0000 🦊',
        labels: ['feature'],
        url: `https://github.com/acme/api/pull/${ref}`,
        commit: 'c0ffee',
        receivedAt: new Date(at),
        ...overrides,
      })
      expect(await store.recordCodeChange(change('1', '2026-03-01T10:00:00Z'))).toBe(true)
      expect(await store.recordCodeChange(change('1', '2026-03-01T11:00:00Z'))).toBe(false)
      expect(await store.recordCodeChange(change('2', '2026-03-01T12:00:00Z', { body: null, url: null, commit: null, labels: [] }))).toBe(
        true,
      )
      expect(await store.recordCodeChange(change('abc', '2026-03-01T13:00:00Z', { kind: 'commit' }))).toBe(true)
      expect(await store.recordCodeChange(change('1', '2026-03-01T14:00:00Z', { repository: 'acme/web' }))).toBe(true)
      const all = await store.listCodeChanges(projectId, { after: new Date(0), until: new Date('2026-04-01T00:00:00Z'), limit: 10 })
      expect(all.map((c) => `${c.repository}#${c.ref}`)).toEqual(['acme/api#1', 'acme/api#2', 'acme/api#abc', 'acme/web#1'])
      expect(all[0]).toEqual(change('1', '2026-03-01T10:00:00Z'))
      expect(all[1]).toMatchObject({ body: null, url: null, commit: null, labels: [] })
      const window = await store.listCodeChanges(projectId, {
        after: new Date('2026-03-01T10:00:00Z'),
        until: new Date('2026-03-01T13:00:00Z'),
        limit: 10,
      })
      expect(window.map((c) => c.ref)).toEqual(['2', 'abc'])
      expect(await store.listCodeChanges(projectId, { after: new Date(0), until: new Date('2027-01-01'), limit: 2 })).toHaveLength(2)
      expect(await store.listCodeChanges(uid('project'), { after: new Date(0), until: new Date('2027-01-01'), limit: 10 })).toEqual([])
    })

    test('saveThreads: creates missing threads, appends in order, bumps counts; several threads in one batch', async () => {
      const store = await open()
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 6, 0, minute))
      const existing = sampleThread({ createdAt: at(0), updatedAt: at(0) })
      await store.createThread(existing)
      // Quotes and backslashes of every kind reach the store unchanged (some stores write these as SQL literals).
      const fresh = sampleThread({ projectId: existing.projectId, fp: "o'brien \\' \\\\ $$ E'x'); --", createdAt: at(1), updatedAt: at(1) })
      const q1 = message(fresh.id, 'user', "first question: it's a \\n 'quote' \\ and \\' \"double\" \u2028", at(1))
      const a1 = { ...message(fresh.id, 'assistant', 'first answer', at(2)), sources: [{ title: 'T', path: 'p', url: '/p' }] }
      const q2 = message(existing.id, 'user', 'another \u0000 question', at(3))
      await store.saveThreads([
        { thread: fresh, messages: [q1], at: at(1) },
        { thread: existing, messages: [q2], at: at(3) },
        { thread: fresh, messages: [a1], at: at(2) },
      ])
      expect((await store.listMessages(fresh.id)).map((m) => m.content)).toEqual([q1.content, 'first answer'])
      expect((await store.getThread(fresh.projectId, fresh.id))?.fp).toBe(fresh.fp)
      expect((await store.listMessages(fresh.id))[1]).toMatchObject({ sources: [{ title: 'T', path: 'p', url: '/p' }] })
      expect((await store.listMessages(existing.id)).map((m) => m.content)).toEqual(['another \u0000 question'])
      expect(await store.getThread(fresh.projectId, fresh.id)).toMatchObject({ messageCount: 2, updatedAt: at(2), createdAt: at(1) })
      expect(await store.getThread(existing.projectId, existing.id)).toMatchObject({ messageCount: 1, updatedAt: at(3) })
      // A thread already stored is not replaced: a later write only appends.
      await store.saveThreads([
        { thread: { ...fresh, fp: 'someone else' }, messages: [message(fresh.id, 'user', 'third', at(4))], at: at(4) },
      ])
      expect(await store.getThread(fresh.projectId, fresh.id)).toMatchObject({ fp: fresh.fp, messageCount: 3 })
      await store.saveThreads([])
    })

    describeAnalyticsConformance(open, test)

    if (reopen) {
      test('data survives a restart', async () => {
        const store = await open()
        const key = sampleKey()
        const job = sampleJob()
        const counter = { key: uid('counter'), limit: 2, expiresAt: new Date(Date.now() + 60_000) }
        await store.insertKey(key)
        await store.insertJob(job)
        await store.admit([counter], new Date())
        await store.admit([counter], new Date())
        await store.close()
        const again = await reopen()
        expect(await again.findKeyByHash(key.hash)).toEqual(key)
        expect(await again.getJob(job.projectId, job.id)).toEqual(job)
        // Counters too (the embedded store writes its in-memory counts when it closes).
        expect(await again.admit([counter], new Date())).toEqual({ admitted: false, counts: [2] })
        await again.close()
      })
    }
  })
}

/** Claims until the given run ids are exhausted, ignoring runs of other tests sharing the store. */
async function claimOwn(store: Store, jobId: string, owner: string, leaseMs: number, now: Date) {
  const run = await store.claimRun({ owner, leaseMs, now })
  if (run && run.jobId !== jobId) throw new Error(`claimed a run of another test: ${run.jobId}`)
  return run
}

async function drainOwn(store: Store, ids: Set<string>, owner: string, now: Date) {
  const mine: string[] = []
  for (;;) {
    const run = await store.claimRun({ owner, leaseMs: 60_000, now })
    if (!run) return mine
    if (ids.has(run.id)) mine.push(run.id)
    await store.finishRun(run.id, owner, 'done')
  }
}
