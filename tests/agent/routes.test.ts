import { describe, expect, test } from 'vitest'
import { AgentEventList, AgentJob, AgentJobList } from '../../shared/agent.ts'
import { AgentApiError, createAgentClient } from '../../shared/client.ts'
import { bearer, json, testDocent } from '../support/app.ts'

const base = '/v2/agent/demo'

async function setup(limits: Record<string, number> = {}) {
  const t = await testDocent(Object.keys(limits).length ? { limits } : {})
  const create = (prompt: unknown = 'Replace "Lumen Flags" with "Lumen Toggles" everywhere') =>
    t.app.request(`${base}/job`, json({ prompt }, bearer(t.keys.admin)))
  const get = (path: string) => t.app.request(`${base}${path}`, { headers: bearer(t.keys.admin) })
  const post = (path: string, body?: unknown) => t.app.request(`${base}${path}`, json(body ?? {}, bearer(t.keys.admin)))
  return { ...t, create, get, post }
}

describe('agent job endpoints (worker off: the lifecycle as the API sees it)', () => {
  test('create → 200 active AgentJob with prLink null; get, list and events show it', async () => {
    const t = await setup()
    const response = await t.create()
    expect(response.status).toBe(200)
    const job = AgentJob.parse(await response.json())
    expect(job).toMatchObject({
      status: 'active',
      prLink: null,
      archivedAt: null,
      error: null,
      model: 'offline-editor',
      source: { repository: 'local:demo', ref: 'main' },
    })
    expect(job.id).toMatch(/^[A-Za-z0-9_-]{16,}$/)
    expect(new Date(job.createdAt).toISOString()).toBe(job.createdAt)

    expect(AgentJob.parse(await (await t.get(`/job/${job.id}`)).json())).toEqual(job)
    const list = AgentJobList.parse(await (await t.get('/jobs')).json())
    expect(list.jobs.map((j) => j.id)).toEqual([job.id])
    const events = AgentEventList.parse(await (await t.get(`/job/${job.id}/events`)).json()).events
    expect(events).toEqual([expect.objectContaining({ type: 'message', message: expect.stringContaining('Lumen Toggles') })])
    const runs = await t.store.listRuns(job.id)
    expect(runs).toEqual([
      expect.objectContaining({ seq: 1, status: 'queued', prompt: 'Replace "Lumen Flags" with "Lumen Toggles" everywhere' }),
    ])
  })

  test('list is newest first and pages with a cursor', async () => {
    const t = await setup()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push(((await (await t.create(`edit ${i}`)).json()) as AgentJob).id)
    const first = AgentJobList.parse(await (await t.get('/jobs?limit=2')).json())
    expect(first.jobs).toHaveLength(2)
    expect(first.nextCursor).toBeTruthy()
    const seen = [...first.jobs.map((j) => j.id)]
    let cursor = first.nextCursor
    while (cursor) {
      const page = AgentJobList.parse(await (await t.get(`/jobs?limit=2&cursor=${encodeURIComponent(cursor)}`)).json())
      seen.push(...page.jobs.map((j) => j.id))
      cursor = page.nextCursor
    }
    expect(new Set(seen)).toEqual(new Set(ids))
    expect(seen).toHaveLength(5)
    expect((await t.get('/jobs?limit=0')).status).toBe(400)
  })

  test('404 for an unknown job, on every job path', async () => {
    const t = await setup()
    for (const response of [
      await t.get('/job/nope'),
      await t.get('/job/nope/events'),
      await t.post('/job/nope/archive'),
      await t.post('/job/nope/message', { prompt: 'x' }),
    ]) {
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: expect.stringContaining('job not found'), code: 'not_found' })
    }
  })

  test('a job is invisible from another organization (403) and a project without agent gets 409', async () => {
    const t = await setup()
    const job = (await (await t.create()).json()) as AgentJob
    const foreign = await t.app.request(`${base}/job/${job.id}`, { headers: bearer(t.keys.otherAdmin) })
    expect(foreign.status).toBe(403)
    const noAgent = await t.app.request('/v2/agent/other/job', json({ prompt: 'x' }, bearer(t.keys.otherAdmin)))
    expect(noAgent.status).toBe(409)
    expect(await noAgent.json()).toEqual({ error: expect.stringMatching(/agent/), code: 'conflict' })
    const assistant = await t.app.request(`${base}/job`, json({ prompt: 'x' }, bearer(t.keys.assistant)))
    expect(assistant.status).toBe(403)
  })

  test('bad bodies → 400 naming the field, and nothing is stored', async () => {
    const t = await setup()
    const cases: Array<[unknown, string]> = [
      ['', 'prompt: must not be empty'],
      ['x'.repeat(20_001), 'prompt: must be at most 20000 characters'],
      [42, 'prompt: must be a string'],
      [null, 'prompt: must be a string'],
    ]
    for (const [prompt, error] of cases) {
      const response = await t.create(prompt)
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ error, code: 'invalid_request' })
    }
    expect(await (await t.post('/job', {})).json()).toEqual({ error: 'prompt: is required', code: 'invalid_request' })
    expect((await t.store.listJobs('demo', { limit: 10 })).items).toEqual([])
  })

  test('follow-up → 200 active and a second run queued in order; archived job → 409', async () => {
    const t = await setup()
    const job = (await (await t.create('first')).json()) as AgentJob
    await t.store.updateJob(job.id, { status: 'completed', pr: { number: '7', url: 'https://git.example/pr/7' } })
    expect(((await (await t.get(`/job/${job.id}`)).json()) as AgentJob).prLink).toBe('https://git.example/pr/7')

    const followUp = await t.post(`/job/${job.id}/message`, { prompt: 'second' })
    expect(followUp.status).toBe(200)
    // The PR exists, but prLink stays hidden while the follow-up is active.
    expect(await followUp.json()).toMatchObject({ id: job.id, status: 'active', prLink: null })
    expect((await t.store.listRuns(job.id)).map((r) => [r.seq, r.prompt, r.status])).toEqual([
      [1, 'first', 'queued'],
      [2, 'second', 'queued'],
    ])

    const archived = await t.post(`/job/${job.id}/archive`)
    expect(archived.status).toBe(200)
    const body = (await archived.json()) as AgentJob
    expect(body.status).toBe('archived')
    expect(body.archivedAt).toBeTruthy()
    expect((await t.store.listRuns(job.id)).map((r) => r.status)).toEqual(['cancelled', 'cancelled'])
    const events = AgentEventList.parse(await (await t.get(`/job/${job.id}/events`)).json()).events
    expect(events.at(-1)).toMatchObject({ type: 'run.cancelled', message: expect.stringContaining('2 run(s) cancelled') })

    const refused = await t.post(`/job/${job.id}/message`, { prompt: 'third' })
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/archived/), code: 'conflict' })
    expect(await t.store.listRuns(job.id)).toHaveLength(2)
    // Archiving again is harmless and keeps the first archive time.
    expect(await (await t.post(`/job/${job.id}/archive`)).json()).toEqual(body)
  })

  test('failed jobs carry error; completed ones do not', async () => {
    const t = await setup()
    const job = (await (await t.create()).json()) as AgentJob
    await t.store.updateJob(job.id, { status: 'failed', error: 'push refused' })
    expect(await (await t.get(`/job/${job.id}`)).json()).toMatchObject({ status: 'failed', error: 'push refused', prLink: null })
  })

  test('creations plus follow-ups are limited per project per hour → 429', async () => {
    const t = await setup({ agentPerProjectPerHour: 3 })
    const job = (await (await t.create()).json()) as AgentJob
    expect((await t.post(`/job/${job.id}/message`, { prompt: 'again' })).status).toBe(200)
    expect((await t.create()).status).toBe(200)
    const limited = await t.create()
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBeTruthy()
    expect(((await limited.json()) as { error: string }).error).toBeTruthy()
    expect((await t.post(`/job/${job.id}/message`, { prompt: 'once more' })).status).toBe(429)
    // Reads are not limited.
    expect((await t.get(`/job/${job.id}`)).status).toBe(200)
    expect((await t.store.listJobs('demo', { limit: 10 })).items).toHaveLength(2)
  })

  test('a request that could change nothing spends none of the limit: no such job, automation or gap, an archived job', async () => {
    const t = await setup({ agentPerProjectPerHour: 2 })
    const job = (await (await t.create()).json()) as AgentJob
    const archived = (await (await t.create()).json()) as AgentJob
    expect((await t.post(`/job/${archived.id}/archive`)).status).toBe(200)
    for (let i = 0; i < 3; i++) {
      expect((await t.post('/job/job_doesnotexist0000/message', { prompt: 'x' })).status).toBe(404)
      expect((await t.post(`/job/${archived.id}/message`, { prompt: 'x' })).status).toBe(409)
      expect((await t.app.request('/workflow/demo/nope/trigger', { method: 'POST', headers: bearer(t.keys.admin) })).status).toBe(404)
      expect((await t.app.request('/v1/analytics/demo/gaps/gap_nope/fix', json({}, bearer(t.keys.admin)))).status).toBe(404)
    }
    // The two creations spent the hour; what was refused above did not.
    expect((await t.post(`/job/${job.id}/message`, { prompt: 'again' })).status).toBe(429)
  })

  test('the typed agent client from shared/ speaks these endpoints', async () => {
    const t = await setup()
    const client = createAgentClient({
      baseUrl: 'http://docent.test',
      apiKey: t.keys.admin,
      projectId: 'demo',
      fetch: ((url: string, init?: RequestInit) => t.app.request(url, init)) as typeof fetch,
    })
    const job = await client.createJob('Fix the misspelling "recieve"')
    expect(await client.getJob(job.id)).toEqual(job)
    expect((await client.listJobs({ limit: 5 })).jobs).toEqual([job])
    expect((await client.sendMessage(job.id, 'and "teh"')).status).toBe('active')
    expect((await client.events(job.id)).map((event) => event.type)).toEqual(['message', 'message'])
    expect((await client.archiveJob(job.id)).status).toBe('archived')
    await expect(client.sendMessage(job.id, 'again')).rejects.toMatchObject({ status: 409, code: 'conflict' })
    await expect(client.getJob('missing')).rejects.toBeInstanceOf(AgentApiError)
    await expect(client.getJob('missing')).rejects.toMatchObject({ status: 404, code: 'not_found' })
  })
})
