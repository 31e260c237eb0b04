import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { bearer, json, testDocent } from '../support/app.ts'

const dirs: string[] = []
const stops: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function setup() {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-embedded-'))
  dirs.push(dataDir)
  // The embedded default: offline-editor model, the demo docs as a local bare repository, the local host.
  const t = await testDocent({ worker: true, dataDir, publicUrl: 'http://docs.test' })
  await t.docent.start()
  stops.push(() => t.docent.stop())
  const admin = bearer(t.keys.admin)
  const api = {
    create: async (prompt: string) => (await t.app.request('/v2/agent/demo/job', json({ prompt }, admin))).json() as Promise<AgentJob>,
    followUp: async (id: string, prompt: string) =>
      (await t.app.request(`/v2/agent/demo/job/${id}/message`, json({ prompt }, admin))).json() as Promise<AgentJob>,
    events: async (id: string) =>
      (
        (await (await t.app.request(`/v2/agent/demo/job/${id}/events`, { headers: admin })).json()) as {
          events: Array<{ type: string; message: string }>
        }
      ).events,
    settled: async (id: string) => {
      for (;;) {
        const job = (await (await t.app.request(`/v2/agent/demo/job/${id}`, { headers: admin })).json()) as AgentJob
        if (job.status !== 'active') return job
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
  }
  return { ...t, ...api }
}

describe('embedded default: offline-editor on the demo docs with the local git host', () => {
  test('Replace "Lumen Flags" with "Lumen Toggles" everywhere → completed, prLink is a review page showing the diff', async () => {
    const t = await setup()
    const job = await t.create('Replace "Lumen Flags" with "Lumen Toggles" everywhere')
    expect(job).toMatchObject({
      status: 'active',
      model: 'offline-editor',
      prLink: null,
      source: { repository: 'local:demo', ref: 'main' },
    })
    const done = await t.settled(job.id)
    expect(done).toMatchObject({ status: 'completed', error: null, prLink: `http://docs.test/review/${job.id}` })

    const review = await t.app.request(`/review/${job.id}`)
    expect(review.status).toBe(200)
    const html = await review.text()
    expect(html).toContain('quickstart.mdx')
    expect(html).toContain('Lumen Toggles')
    expect(html).toContain('Lumen Flags') // the removed lines

    const types = (await t.events(job.id)).map((event) => event.type)
    expect(types).toEqual(expect.arrayContaining(['run.started', 'search', 'file.changed', 'commit', 'push', 'pr', 'run.finished']))

    // A follow-up the offline editor understands adds a commit to the same review.
    const followUp = await t.followUp(job.id, 'Append a section "Support" to quickstart with the text "Write to support@lumen.test."')
    expect(followUp).toMatchObject({ status: 'active', prLink: null })
    expect(await t.settled(job.id)).toMatchObject({ status: 'completed', prLink: done.prLink })
    expect(await (await t.app.request(`/review/${job.id}`)).text()).toContain('support@lumen.test')
  })

  test('an instruction the offline editor does not understand completes with no change, and the events list what it understands', async () => {
    const t = await setup()
    const job = await t.create('Rewrite the docs in a friendlier tone')
    const done = await t.settled(job.id)
    expect(done).toMatchObject({ status: 'completed', prLink: null, error: null })
    const events = await t.events(job.id)
    const note = events.find((event) => event.message.includes('did not understand'))
    expect(note?.message).toContain('Replace "old phrase" with "new phrase" everywhere')
    expect(note?.message).toContain('Add a page titled "Title"')
    expect(events.map((event) => event.type)).not.toContain('commit')
  })

  test('an instruction it cannot carry out (its page write is refused) fails the job with the reason; nothing is committed', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'docent-embedded-'))
    dirs.push(dataDir)
    const t = await testDocent({
      worker: true,
      dataDir,
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { directory: 'demo/docs' },
          agent: { repository: 'local:demo', writablePaths: ['**/docs.json'] },
        },
        { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' } },
      ],
    })
    await t.docent.start()
    stops.push(() => t.docent.stop())
    const admin = bearer(t.keys.admin)
    const { id } = (await (
      await t.app.request('/v2/agent/demo/job', json({ prompt: 'Add a page titled "Glossary"' }, admin))
    ).json()) as AgentJob
    let job: AgentJob
    do {
      await new Promise((resolve) => setTimeout(resolve, 25))
      job = (await (await t.app.request(`/v2/agent/demo/job/${id}`, { headers: admin })).json()) as AgentJob
    } while (job.status === 'active')
    expect(job).toMatchObject({
      status: 'failed',
      prLink: null,
      error: expect.stringMatching(/^the request could not be carried out: Could not add the page "Glossary": /),
    })
    const { events } = (await (await t.app.request(`/v2/agent/demo/job/${id}/events`, { headers: admin })).json()) as {
      events: Array<{ type: string }>
    }
    expect(events.map((event) => event.type)).not.toContain('commit')
    expect(events.at(-1)).toMatchObject({ type: 'run.failed' })
  })
})
