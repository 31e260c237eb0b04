import { afterEach, describe, expect, test } from 'vitest'
import { MAX_PROMPT_CHARS } from '../../shared/agent.ts'
import type { Automation, CreateAutomationInput } from '../../shared/automations.ts'
import { triggerNow } from '../../server/automations/routes.ts'
import { MAX_CUSTOM_AUTOMATIONS } from '../../server/automations/settings.ts'
import { createKey } from '../../server/keys/keys.ts'
import type { Logger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { MemoryStore } from '../../server/store/memory.ts'
import { bearer, json } from '../support/app.ts'
import { demoProject } from './support/api.ts'

// What bounds the agent work automations start: every run (scheduled, on a docs move, on a merge, triggered) is an
// agent job that counts against the project's hourly agent limit, on the same store counter as the agent API's job
// creations (one budget across the API and every instance's scheduler); a project's custom automations are capped; a
// custom automation whose job prompt would not fit the job prompt limit is refused, never cut. The clock is the
// context's `now`, set by the test; the scheduler's pass is called, not waited for.

const EVERY_MINUTE = { kind: 'schedule' as const, cron: '* * * * *' }

let clock = new Date('2026-06-15T10:00:30Z')
let docents: Docent[] = []
let warnings: Array<{ message: string; fields?: Record<string, unknown> }> = []
afterEach(async () => {
  for (const docent of docents) await docent.stop()
  docents = []
  warnings = []
  clock = new Date('2026-06-15T10:00:30Z')
})

const log: Logger = { info() {}, warn: (message, fields) => void warnings.push({ message, fields }), error() {} }

/** `count` server instances on one store (as several processes on one database), with the demo project's admin key. */
async function setup({ limit = 100, count = 1 } = {}) {
  const store = new MemoryStore()
  for (let i = 0; i < count; i++) {
    const config = {
      store: { kind: 'memory' as const },
      worker: false,
      projects: [demoProject()],
      limits: { agentPerProjectPerHour: limit },
    }
    docents.push(await createDocent(config, { store, log, now: () => clock }))
  }
  const admin = bearer((await createKey(store, { kind: 'admin', organization: 'demo' })).secret)
  const app = docents[0]!.app
  const send = (path: string, method: string, body?: unknown) =>
    app.request(path, body === undefined ? { method, headers: admin } : { ...json(body, admin), method })
  return {
    store,
    instances: docents,
    send,
    create: (body: CreateAutomationInput) => send('/v2/agent/demo/automations', 'POST', body),
    /** A job through the agent API: what it answers tells how much of the hour is left. */
    job: () => send('/v2/agent/demo/job', 'POST', { prompt: 'Fix the typo on the quickstart page' }),
    trigger: (id: string) => send(`/workflow/demo/${id}/trigger`, 'POST'),
    runsOf: async (id: string) => (await store.listAutomationRuns('demo', id, { limit: 100 })).items,
  }
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error
const at = (iso: string) => (clock = new Date(iso))

describe('the hourly agent limit', () => {
  test('scheduled runs spend it with the API and the trigger, and are skipped once it is spent', async () => {
    const t = await setup({ limit: 4 })
    const ids: string[] = []
    for (const name of ['Every minute A', 'Every minute B']) {
      const response = await t.create({ name, prompt: 'Tidy the glossary', trigger: EVERY_MINUTE })
      expect(response.status).toBe(200)
      ids.push(((await response.json()) as Automation).id)
    }
    const [a, b] = ids as [string, string]
    at('2026-06-15T10:01:10Z')
    await t.instances[0]!.automations.tick()
    expect((await t.runsOf(a)).length + (await t.runsOf(b)).length).toBe(2)
    // The trigger's guard counts its run; the run does not count a second time.
    expect((await t.trigger(a)).status).toBe(202)
    const last = await t.job()
    expect(last.status).toBe(200)
    expect(last.headers.get('ratelimit-remaining')).toBe('0')

    // Spent: the next minute's slots start nothing, and say why in the log.
    at('2026-06-15T10:02:10Z')
    await t.instances[0]!.automations.tick()
    expect((await t.runsOf(a)).map((run) => run.reason).sort()).toEqual(['manual', 'schedule'])
    expect(await t.runsOf(b)).toHaveLength(1)
    expect(warnings.map((warning) => warning.message)).toEqual([
      'automation run not started: the project made its agent jobs of this hour',
      'automation run not started: the project made its agent jobs of this hour',
    ])
    expect(warnings.map((warning) => warning.fields?.automation).sort()).toEqual([a, b].sort())
    expect(warnings[0]!.fields).toMatchObject({ reason: 'schedule', limit: 4, retryAfterSeconds: 58 * 60 - 10 })
    expect((await t.job()).status).toBe(429)
    expect((await t.trigger(a)).status).toBe(429)
    // The CLI's trigger, with no guard before it, counts its run itself.
    const { context } = t.instances[0]!
    await expect(triggerNow(context, context.projects.byId('demo')!, a)).rejects.toMatchObject({
      code: 'rate_limited',
      data: { retryAfterSeconds: 58 * 60 - 10 },
    })
    expect(await t.store.listJobs('demo', { limit: 100 }).then((page) => page.items.length)).toBe(4)

    // The next hour has room again: its first slot runs; the skipped ones are not made up for.
    at('2026-06-15T11:00:10Z')
    await t.instances[0]!.automations.tick()
    const [latest] = await t.runsOf(a)
    expect(latest).toMatchObject({ reason: 'schedule', context: { slot: '2026-06-15T11:00:00.000Z' } })
    expect(await t.runsOf(b)).toHaveLength(2)
  })

  test('a follow-up on an automation’s open job counts like a new job', async () => {
    const t = await setup({ limit: 2 })
    expect((await t.send('/v2/agent/demo/automations/fix-typos', 'PUT', { enabled: true, trigger: EVERY_MINUTE })).status).toBe(200)
    at('2026-06-15T10:01:10Z')
    await t.instances[0]!.automations.tick()
    at('2026-06-15T10:02:10Z')
    await t.instances[0]!.automations.tick()
    const runs = await t.runsOf('fix-typos')
    expect(runs).toHaveLength(2)
    expect(runs[0]!.jobId).toBe(runs[1]!.jobId)
    expect((await t.job()).status).toBe(429)
  })

  test('instances ticking over the same slot spend the hour once for its one run', async () => {
    const t = await setup({ limit: 3, count: 2 })
    const custom = (await (
      await t.create({ name: 'Every minute', prompt: 'Tidy the glossary', trigger: EVERY_MINUTE })
    ).json()) as Automation
    at('2026-06-15T10:01:10Z')
    await Promise.all(t.instances.flatMap((docent) => [docent.automations.tick(), docent.automations.tick()]))
    expect(await t.runsOf(custom.id)).toHaveLength(1)
    expect((await t.job()).headers.get('ratelimit-remaining')).toBe('1')
  })
})

describe('custom automations', () => {
  test(`a project has at most ${MAX_CUSTOM_AUTOMATIONS}: one more is a 409 naming the cap`, async () => {
    const t = await setup()
    let first = ''
    for (let i = 0; i < MAX_CUSTOM_AUTOMATIONS; i++) {
      const response = await t.create({ name: `Custom ${i}`, prompt: 'Tidy the glossary', trigger: EVERY_MINUTE })
      expect(response.status).toBe(200)
      first ||= ((await response.json()) as Automation).id
    }
    const over = await t.create({ name: 'One too many', prompt: 'Tidy the glossary', trigger: EVERY_MINUTE })
    expect(over.status).toBe(409)
    expect(await errorOf(over)).toBe(
      `project demo has ${MAX_CUSTOM_AUTOMATIONS} custom automations, the most it may have (${MAX_CUSTOM_AUTOMATIONS}): delete one first`,
    )
    // Turning on predefined ones is not creating: they are not counted.
    expect((await t.send('/v2/agent/demo/automations/fix-typos', 'PUT', { enabled: true })).status).toBe(200)
    expect((await t.send(`/v2/agent/demo/automations/${first}`, 'DELETE')).status).toBe(204)
    expect((await t.create({ name: 'In its place', prompt: 'Tidy the glossary', trigger: EVERY_MINUTE })).status).toBe(200)
  })

  test('name, prompt and instructions too long together for a job prompt are refused, not cut', async () => {
    const t = await setup()
    const name = 'Long'
    const prompt = 'p'.repeat(15_000)
    // `${name}: ${prompt}\n\nInstructions: ${instructions}` at exactly the limit.
    const fits = 'i'.repeat(MAX_PROMPT_CHARS - `${name}: ${prompt}\n\nInstructions: `.length)
    const tooLong = await t.create({ name, prompt, instructions: `${fits}!`, trigger: EVERY_MINUTE })
    expect(tooLong.status).toBe(400)
    expect(await errorOf(tooLong)).toBe(
      `instructions: a run's job prompt (the name, prompt and instructions) would be ${MAX_PROMPT_CHARS + 1} ` +
        `characters, over the job prompt limit of ${MAX_PROMPT_CHARS}: shorten the prompt or the instructions by 1`,
    )
    // The longest prompt the body allows does not fit with the name before it.
    const longest = await t.create({ name, prompt: 'p'.repeat(20_000), trigger: EVERY_MINUTE })
    expect(longest.status).toBe(400)
    expect(await errorOf(longest)).toMatch(/^prompt: a run's job prompt \(the name, prompt and instructions\) would be 20006 characters/)

    const created = await t.create({ name, prompt, trigger: EVERY_MINUTE })
    expect(created.status).toBe(200)
    const { id } = (await created.json()) as Automation
    const update = await t.send(`/v2/agent/demo/automations/${id}`, 'PUT', { instructions: `${fits}!` })
    expect(update.status).toBe(400)
    expect(await errorOf(update)).toMatch(/^instructions: .* over the job prompt limit of 20000/)
    expect((await t.send(`/v2/agent/demo/automations/${id}`, 'PUT', { instructions: fits })).status).toBe(200)
    // At the limit, a run's job prompt carries every character of the instructions.
    const triggered = (await (await t.trigger(id)).json()) as { jobId: string }
    const [queued] = await t.store.listRuns(triggered.jobId)
    expect(queued!.prompt).toBe(`${name}: ${prompt}\n\nInstructions: ${fits}`)
    expect(queued!.prompt).toHaveLength(MAX_PROMPT_CHARS)
  })
})
