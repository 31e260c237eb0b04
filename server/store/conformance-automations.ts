import { expect } from 'vitest'
import { sampleAutomation, sampleAutomationRun, sampleJob, type SuiteApi, uid } from './conformance-fixtures.ts'
import type { CodeChangeRecord, Store } from './types.ts'

/** Automation settings, their runs (one per key, with the job they start) and recorded code changes. */
export function describeAutomationsConformance(open: () => Promise<Store>, test: SuiteApi['test']) {
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
}
