import { describe, expect, test } from 'vitest'
import { describeAnalyticsConformance } from './conformance-analytics.ts'
import { describeAutomationsConformance } from './conformance-automations.ts'
import { describeCursorConformance } from './conformance-cursors.ts'
import { uid, sampleKey, sampleJob, sampleThread, message, type SuiteApi } from './conformance-fixtures.ts'
import { describeJobsConformance } from './conformance-jobs.ts'
import { type CursorScope, encodeCursor } from './cursor.ts'
import type { SessionRecord, Store } from './types.ts'

export {
  message,
  sampleAutomation,
  sampleAutomationRun,
  sampleJob,
  sampleKey,
  sampleThread,
  type SuiteApi,
  uid,
} from './conformance-fixtures.ts'

const vitest: SuiteApi = { describe, test }

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
      await expect(store.ping()).resolves.toBeUndefined()
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
      // A cursor holding an id no item has (its tag is no secret): a place in the list all the same, not a store error.
      const forged = (scope: CursorScope) => encodeCursor(scope, new Date('2000-01-01T00:00:00.000Z'), impossible)
      const threads = await forged({ list: 'threads', projectId: thread.projectId })
      expect((await store.listThreads(thread.projectId, { limit: 5, cursor: threads })).items).toEqual([])
      const jobs = await forged({ list: 'jobs', projectId: job.projectId })
      expect((await store.listJobs(job.projectId, { limit: 5, cursor: jobs })).items).toEqual([])
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

    describeJobsConformance(open, test)
    describeAutomationsConformance(open, test)
    describeAnalyticsConformance(open, test)
    describeCursorConformance(open, test)

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
