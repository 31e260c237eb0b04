import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { startPostgres } from '../support/postgres.ts'
import { demoProject } from './support/api.ts'

// A schedule fires exactly once per slot: with two server instances on one PostgreSQL ticking at the same moments,
// and across a kill -9 (a slot missed while the server was down runs once, late, not once per missed slot). The clock
// is the context's `now`, set by the test; the scheduler's pass is called, not waited for.

const server = await startPostgres()
/** Daily at 09:00 in Paris: 07:00 or 08:00 UTC depending on the season. */
const SCHEDULE = { kind: 'schedule' as const, cron: '0 9 * * *', timeZone: 'Europe/Paris' }

if ('skip' in server) {
  describe('scheduler on PostgreSQL', () => test.skip(server.skip, () => {}))
} else {
  const dirs: string[] = []
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true })
    await server.stop()
  })
  const project = (dataDir: string) => ({
    store: { kind: 'postgres' as const, url: '' },
    dataDir,
    worker: false,
    projects: [demoProject()],
  })
  const slotsOf = async (store: Store) =>
    (await store.listAutomationRuns('demo', 'draft-changelog', { limit: 100 })).items.map((run) => run.context.slot as string).sort()

  describe('scheduler on PostgreSQL', () => {
    let clock = new Date('2026-03-01T12:00:00Z')
    const instances: Docent[] = []
    let store: Store
    beforeAll(async () => {
      const url = await server.createDatabase('docent_schedule')
      store = await openPostgresStore(url)
      for (let i = 0; i < 2; i++) {
        const dataDir = await mkdtemp(join(tmpdir(), 'docent-schedule-'))
        dirs.push(dataDir)
        const config = { ...project(dataDir), store: { kind: 'postgres' as const, url } }
        instances.push(await createDocent(config, { log: consoleLogger('silent'), now: () => clock }))
      }
    })
    afterAll(async () => {
      for (const docent of instances) await docent.stop()
      await store?.close()
    })

    test('two instances ticking together run each slot once', async () => {
      const [a, b] = instances as [Docent, Docent]
      const response = await a.app.request('/v2/agent/demo/automations/draft-changelog', {
        method: 'PUT',
        headers: { authorization: `Bearer ${await adminKey(a)}`, 'content-type': 'application/json' },
        body: JSON.stringify({ enabled: true, trigger: SCHEDULE }),
      })
      expect(response.status).toBe(200)
      expect((await response.json()).nextRunAt).toBe('2026-03-02T08:00:00.000Z')
      // Before the first slot: nothing, however often both tick.
      await Promise.all([a.automations.tick(), b.automations.tick(), a.automations.tick()])
      expect(await slotsOf(store)).toEqual([])
      // Each day, both instances tick at the same moments (several passes each) just after the slot.
      for (let day = 0; day < 4; day++) {
        clock = new Date(Date.UTC(2026, 2, 2 + day, 8, 0, 30))
        await Promise.all([a.automations.tick(), b.automations.tick(), b.automations.tick(), a.automations.tick()])
        clock = new Date(clock.getTime() + 60_000)
        await Promise.all([a.automations.tick(), b.automations.tick()])
      }
      expect(await slotsOf(store)).toEqual([
        '2026-03-02T08:00:00.000Z',
        '2026-03-03T08:00:00.000Z',
        '2026-03-04T08:00:00.000Z',
        '2026-03-05T08:00:00.000Z',
      ])
      // Every run is an agent job with one queued run.
      for (const run of (await store.listAutomationRuns('demo', 'draft-changelog', { limit: 100 })).items) {
        expect((await store.listRuns(run.jobId)).map((queued) => [queued.id, queued.status])).toEqual([[run.id, 'queued']])
      }
    })
  })

  describe('scheduler across a kill -9', () => {
    let url: string
    let dataDir: string
    beforeAll(async () => {
      url = await server.createDatabase('docent_schedule_kill')
      dataDir = await mkdtemp(join(tmpdir(), 'docent-schedule-kill-'))
      dirs.push(dataDir)
    })

    test('a killed server’s claimed slot never runs again; slots missed while it was down run once, late', async () => {
      const store = await openPostgresStore(url)
      try {
        const first = await startChild(url, dataDir, '2026-06-01T12:00:00Z')
        await first.tick('2026-06-01T12:00:00Z')
        // Turned on through the store, as the API would (the child has no key to call it with).
        const now = new Date('2026-06-01T12:00:00Z')
        await store.putAutomation({
          projectId: 'demo',
          id: 'draft-changelog',
          kind: 'predefined',
          name: 'Draft changelog',
          enabled: true,
          trigger: SCHEDULE,
          mode: 'pull_request',
          instructions: null,
          languages: [],
          prompt: null,
          scheduleFrom: now,
          lastSlot: null,
          contentRevision: null,
          createdAt: now,
          updatedAt: now,
        })
        await first.tick('2026-06-02T07:00:05Z')
        expect(await slotsOf(store)).toEqual(['2026-06-02T07:00:00.000Z'])
        await first.kill()
        // As if the process died between claiming the slot and noting it: the claim alone must hold.
        const automation = (await store.getAutomation('demo', 'draft-changelog'))!
        await store.putAutomation({ ...automation, lastSlot: null })

        // Restarted at once: the slot it claimed is not run again, although it was not noted.
        const second = await startChild(url, dataDir, '2026-06-02T07:10:00Z')
        await second.tick('2026-06-02T07:10:00Z')
        expect(await slotsOf(store)).toEqual(['2026-06-02T07:00:00.000Z'])
        // Three days later: the slots of 3, 4 and 5 June were missed; the latest runs, once.
        await second.tick('2026-06-05T09:30:00Z')
        await second.tick('2026-06-05T09:31:00Z')
        expect(await slotsOf(store)).toEqual(['2026-06-02T07:00:00.000Z', '2026-06-05T07:00:00.000Z'])
        const late = (await store.listAutomationRuns('demo', 'draft-changelog', { limit: 1 })).items[0]!
        expect(late).toMatchObject({ reason: 'schedule', context: { slot: '2026-06-05T07:00:00.000Z', missed: 2 } })
        await second.kill()

        // And killed again right after: the next slot is the next day's, once.
        const third = await startChild(url, dataDir, '2026-06-06T07:00:01Z')
        await third.tick('2026-06-06T07:00:01Z')
        await third.tick('2026-06-06T07:05:00Z')
        await third.kill()
        expect(await slotsOf(store)).toEqual(['2026-06-02T07:00:00.000Z', '2026-06-05T07:00:00.000Z', '2026-06-06T07:00:00.000Z'])
      } finally {
        await store.close()
      }
    }, 120_000)
  })
}

async function adminKey(docent: Docent): Promise<string> {
  const { createKey } = await import('../../server/keys/keys.ts')
  return (await createKey(docent.context.store, { kind: 'admin', organization: 'demo' })).secret
}

/** The child server process; `tick` sets its clock and waits for its pass; `kill` is SIGKILL. */
async function startChild(url: string, dataDir: string, clock: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/automations/support/scheduler-child.ts'], {
    env: { ...process.env, DATABASE_URL: url, DOCENT_DATA_DIR: dataDir, CLOCK: clock, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let output = ''
  const waiters: Array<{ line: string; resolve: () => void }> = []
  child.stderr!.on('data', (chunk) => (output += chunk))
  child.stdout!.on('data', (chunk) => {
    output += chunk
    for (const waiter of [...waiters]) {
      if (output.includes(waiter.line)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const expectLine = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (output.includes(line)) return resolve()
      waiters.push({ line, resolve })
      void exited.then(() => reject(new Error(`the child exited before "${line}":\n${output}`)))
    })
  await expectLine('ready')
  return {
    async tick(at: string) {
      child.stdin!.write(`tick ${at}\n`)
      await expectLine(`ticked ${new Date(at).toISOString()}`)
    },
    async kill() {
      child.kill('SIGKILL')
      await exited
    },
  }
}
