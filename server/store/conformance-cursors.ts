import { expect } from 'vitest'
import { sampleGap, sampleSignal, sampleTurn } from './conformance-analytics.ts'
import { rateTurns, type SuiteApi, sampleAutomationRun, sampleJob, sampleThread, uid } from './conformance-fixtures.ts'
import type { Page, SearchRecord, Store } from './types.ts'

const invalid = { code: 'invalid_request', message: expect.stringMatching(/^cursor: invalid/) }
const range = { from: new Date('2026-01-01T00:00:00Z'), to: new Date('2027-01-01T00:00:00Z') }
const at = (day: number) => new Date(Date.UTC(2026, 2, day, 12))

/** Two items in every paged list of a project, in March 2026, so that each gives a cursor on a page of one. */
export async function fillLists(store: Store, projectId: string): Promise<void> {
  const thread = sampleThread({ projectId })
  await store.createThread(thread)
  await store.createThread(sampleThread({ projectId }))
  for (const day of [1, 2]) {
    const run = sampleAutomationRun({ projectId, startedAt: at(day) })
    await store.startAutomationRun({ run, job: sampleJob({ projectId, id: run.jobId, createdAt: at(day) }), prompt: 'Fix links' })
  }
  const turns = [1, 2].map((day) => sampleTurn({ projectId, threadId: thread.id, askedAt: at(day) }))
  const searches = ['webhooks', 'sso'].map(
    (query): SearchRecord => ({
      id: uid('search'),
      projectId,
      at: at(1),
      query,
      resultCount: 1,
      topScore: 1,
      caller: 'web',
      origin: 'search',
    }),
  )
  const signals = [1, 2].map((day) => sampleSignal({ projectId, at: at(day) }))
  await store.recordAnalytics({ turns, searches, signals })
  await rateTurns(store, thread.id, turns, 1, at(3))
  for (const signal of signals) {
    const gap = sampleGap({ projectId })
    await store.insertGap(gap)
    await store.assignSignals(gap.id, [signal.id])
  }
}

/**
 * Cursors in the conformance suite: a paged list reads back the cursors it gave out, and refuses every other list's,
 * its own of another project (or automation), and edited ones, as invalid requests (README: "any other cursor is a 400").
 */
export function describeCursorConformance(open: () => Promise<Store>, test: SuiteApi['test']) {
  test('cursors: a list reads back only its own, of its own project and automation', async () => {
    const store = await open()
    const projectId = uid('project')
    const elsewhere = uid('project')
    await fillLists(store, projectId)
    await fillLists(store, elsewhere)
    const page = { limit: 1 }
    const lists: Record<string, (project: string, cursor?: string) => Promise<Page<unknown>>> = {
      jobs: (project, cursor) => store.listJobs(project, { ...page, cursor }),
      threads: (project, cursor) => store.listThreads(project, { ...page, cursor }),
      runs: (project, cursor) => store.listAutomationRuns(project, 'fix-broken-links', { ...page, cursor }),
      turns: (project, cursor) => store.listTurns(project, range, { ...page, cursor }),
      feedback: (project, cursor) => store.listFeedback(project, { range }, { ...page, cursor }),
      searchTerms: (project, cursor) => store.searchTerms(project, range, { ...page, cursor }),
      gaps: (project, cursor) => store.listGaps(project, { range, ...page, cursor }),
    }
    for (const [name, list] of Object.entries(lists)) {
      const cursor = (await list(projectId)).nextCursor
      expect(cursor, name).toEqual(expect.any(String))
      expect((await list(projectId, cursor!)).items, name).toHaveLength(1)
      for (const [other, otherList] of Object.entries(lists)) {
        if (other !== name) await expect(otherList(projectId, cursor!), `${name} cursor on ${other}`).rejects.toMatchObject(invalid)
      }
      await expect(list(elsewhere, cursor!), `${name} cursor of another project`).rejects.toMatchObject(invalid)
      // One character changed: the cursor of no list.
      const edited = cursor!.slice(0, -2) + (cursor!.at(-2) === 'A' ? 'B' : 'A') + cursor!.at(-1)
      await expect(list(projectId, edited), `${name} cursor edited`).rejects.toMatchObject(invalid)
    }
    const runs = (await lists.runs!(projectId)).nextCursor!
    await expect(store.listAutomationRuns(projectId, 'fix-typos', { limit: 1, cursor: runs })).rejects.toMatchObject(invalid)
  })
}
