import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { ConsoleJobList } from '../../shared/console.ts'
import { wantsEventStream } from '../../server/agent/job-event-stream.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { createKey } from '../../server/keys/keys.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { startPostgres } from '../support/postgres.ts'
import { readSse, type SseFrame } from './support.ts'

// A job's events live (text/event-stream): they arrive while the job runs, the job's changes follow, the stream ends
// when the job does; and on PostgreSQL an instance that is not running the job streams what the other one's worker does.

const cleanups: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const stream = { accept: 'text/event-stream' }

test('content negotiation: the stream only when asked for before JSON', () => {
  expect(wantsEventStream('text/event-stream')).toBe(true)
  expect(wantsEventStream('application/json, text/event-stream')).toBe(false)
  expect(wantsEventStream('text/event-stream, application/json')).toBe(true)
  expect(wantsEventStream('application/json;q=0.5, text/event-stream')).toBe(true)
  expect(wantsEventStream('*/*')).toBe(false)
  expect(wantsEventStream(undefined)).toBe(false)
})

describe('live job events', () => {
  test('events arrive as the job runs, then the finished job, then end; Last-Event-ID resumes', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'docent-console-events-'))
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
    const t = await testDocent({ worker: true, dataDir })
    cleanups.push(() => t.docent.stop())
    // Created before the worker starts: the stream is open, and has delivered the first event, while the job waits.
    const job = (await (
      await t.app.request(
        '/v2/agent/demo/job',
        json({ prompt: 'Replace "Lumen Flags" with "Lumen Toggles" everywhere' }, bearer(t.keys.admin)),
      )
    ).json()) as AgentJob
    const response = await t.app.request(`/v2/agent/demo/job/${job.id}/events`, { headers: { ...bearer(t.keys.admin), ...stream } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    let started = false
    const frames = await readSse(response, async (frame) => {
      if (!started && frame.event === 'agent') {
        started = true
        // The first event is here and the job is still waiting for a worker: only now does one start.
        expect((await t.store.getJob('demo', job.id))?.status).toBe('active')
        expect(await t.store.listRuns(job.id)).toEqual([expect.objectContaining({ status: 'queued' })])
        await t.docent.start()
      }
      return frame.event === 'end'
    })
    const kinds = frames.map((frame) => (frame.event === 'agent' ? (frame.data as { type: string }).type : frame.event))
    expect(kinds[0]).toBe('message')
    expect(kinds[1]).toBe('job')
    expect(kinds).toContain('run.started')
    expect(kinds).toContain('file.changed')
    expect(kinds.indexOf('run.started')).toBeGreaterThan(kinds.indexOf('job'))
    expect(kinds.at(-1)).toBe('end')
    const last = frames.filter((frame) => frame.event === 'job').at(-1)!.data as AgentJob
    expect(last.status).toBe('completed')
    expect(last.prLink).toMatch(/\/review\//)
    // Ids are positions: 1, 2, 3... and the JSON list has the same events.
    const ids = frames.filter((frame) => frame.event === 'agent').map((frame) => Number(frame.id))
    expect(ids).toEqual(ids.map((_, i) => i + 1))
    const listed = (
      (await (await t.app.request(`/v2/agent/demo/job/${job.id}/events`, { headers: bearer(t.keys.admin) })).json()) as {
        events: unknown[]
      }
    ).events
    expect(listed).toEqual(frames.filter((frame) => frame.event === 'agent').map((frame) => frame.data))

    // A reconnect with Last-Event-ID gets only what came after; a finished job's stream ends at once.
    const resumed = await readSse(
      await t.app.request(`/v2/agent/demo/job/${job.id}/events`, {
        headers: { ...bearer(t.keys.admin), ...stream, 'last-event-id': String(ids.length - 2) },
      }),
      () => false,
    )
    expect(resumed.filter((frame) => frame.event === 'agent').map((frame) => Number(frame.id))).toEqual([ids.length - 1, ids.length])
    expect(resumed.at(-1)?.event).toBe('end')

    // The console's job list carries the prompt.
    const list = ConsoleJobList.parse(await (await t.app.request('/console/api/demo/jobs', { headers: bearer(t.keys.admin) })).json())
    expect(list.jobs[0]).toMatchObject({ id: job.id, prompt: 'Replace "Lumen Flags" with "Lumen Toggles" everywhere', followUps: 0 })
  })

  test('an unknown job is a 404, another organization a 403, before any stream', async () => {
    const t = await testDocent()
    expect((await t.app.request('/v2/agent/demo/job/job_nope/events', { headers: { ...bearer(t.keys.admin), ...stream } })).status).toBe(
      404,
    )
    expect(
      (await t.app.request('/v2/agent/demo/job/job_nope/events', { headers: { ...bearer(t.keys.otherAdmin), ...stream } })).status,
    ).toBe(403)
  })
})

const pg = await startPostgres()
if ('skip' in pg) {
  describe('live job events across instances on PostgreSQL', () => test.skip(pg.skip, () => {}))
} else {
  describe('live job events across instances on PostgreSQL', () => {
    test("an instance without a worker streams the other instance's run as it happens", async () => {
      const url = await pg.createDatabase('docent_console_events')
      const dataDir = await mkdtemp(join(tmpdir(), 'docent-console-pg-'))
      cleanups.push(() => pg.stop())
      cleanups.push(() => rm(dataDir, { recursive: true, force: true }))
      const config = (worker: boolean) => ({
        store: { kind: 'postgres' as const, url },
        dataDir,
        worker,
        projects: [
          {
            id: 'demo',
            organization: 'demo',
            domain: 'demo',
            docs: { directory: 'demo/docs' },
            agent: { repository: 'local:demo' },
          },
        ],
      })
      const watcher = await createDocent(config(false), { log: consoleLogger('silent') })
      cleanups.push(() => watcher.stop())
      const admin = (await createKey(watcher.context.store, { kind: 'admin', organization: 'demo' })).secret
      const job = (await (
        await watcher.app.request('/v2/agent/demo/job', json({ prompt: 'Fix the misspelling "recieve"' }, bearer(admin)))
      ).json()) as AgentJob
      const response = await watcher.app.request(`/v2/agent/demo/job/${job.id}/events`, { headers: { ...bearer(admin), ...stream } })
      let runner: Awaited<ReturnType<typeof createDocent>> | undefined
      const frames: SseFrame[] = await readSse(response, async (frame) => {
        if (!runner) {
          // Only after the watcher's stream has delivered its first event does the other instance start working.
          runner = await createDocent(config(true), { log: consoleLogger('silent') })
          cleanups.push(() => runner!.stop())
          await runner.start()
        }
        return frame.event === 'end'
      })
      const types = frames.filter((frame) => frame.event === 'agent').map((frame) => (frame.data as { type: string }).type)
      expect(types[0]).toBe('message')
      expect(types).toContain('run.started')
      expect(types).toContain('run.finished')
      expect((frames.filter((frame) => frame.event === 'job').at(-1)!.data as AgentJob).status).toBe('completed')
    })
  })
}
