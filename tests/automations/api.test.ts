import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Automation, type AutomationList, type AutomationRunList, PREDEFINED_AUTOMATION_IDS } from '../../shared/automations.ts'
import { createKey } from '../../server/keys/keys.ts'
import { bearer, testDocent } from '../support/app.ts'
import { demoProject } from './support/api.ts'

// The admin API of automations as ../shared/API.md gives it, and what it refuses: other organizations, assistant keys,
// read-only keys changing things, and bad input with a message naming the field.

let t: Awaited<ReturnType<typeof testDocent>>
let read: Record<string, string>
beforeAll(async () => {
  t = await testDocent({
    projects: [
      demoProject({ automations: { codeRepositories: [{ repository: 'acme/api', host: 'github' }] } }),
      { id: 'sibling', organization: 'demo', domain: 'sibling', docs: { directory: 'demo/docs' }, agent: { repository: 'local:sibling' } },
      { id: 'other', organization: 'acme', domain: 'acme.example', docs: { directory: 'demo/docs' }, allowedOrigins: ['*'] },
    ],
  })
  read = bearer((await createKey(t.store, { kind: 'admin', organization: 'demo', scope: 'read' })).secret)
})
afterAll(() => t.docent.stop())

const call = (path: string, method = 'GET', body?: unknown, key = t.keys.admin) =>
  t.app.request(path, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error

describe('automations API', () => {
  test('every predefined automation is listed, off until turned on, with what it needs', async () => {
    const response = await call('/v2/agent/demo/automations')
    expect(response.status).toBe(200)
    const { automations } = (await response.json()) as AutomationList
    expect(automations.map((a) => a.id)).toEqual([...PREDEFINED_AUTOMATION_IDS])
    for (const automation of automations) {
      expect(automation).toMatchObject({
        kind: 'predefined',
        enabled: false,
        mode: 'pull_request',
        instructions: null,
        nextRunAt: null,
        lastRun: null,
      })
    }
    const byId = new Map(automations.map((a) => [a.id, a]))
    expect(byId.get('fix-broken-links')!.trigger).toEqual({ kind: 'content' })
    expect(byId.get('draft-changelog')!.trigger).toEqual({ kind: 'schedule', cron: '0 9 * * mon', timeZone: 'UTC' })
    expect(byId.get('translate')!.languages).toEqual([])
    // With no model configured, the automations that need one say so; the mechanical ones are available.
    for (const id of ['translate', 'style-guide', 'update-from-code-changes'])
      expect(byId.get(id)!.unavailable).toMatch(/needs a language model/)
    for (const id of ['fix-broken-links', 'fix-typos', 'fix-seo', 'draft-changelog', 'fill-gaps', 'improve-from-feedback']) {
      expect(byId.get(id)!.unavailable).toBeNull()
    }
  })

  test('a time zone keeps the name the team gave, not an older alias ICU resolves it to', async () => {
    for (const timeZone of ['Asia/Kolkata', 'Europe/Kyiv']) {
      const response = await call('/v2/agent/demo/automations/fix-seo', 'PUT', {
        trigger: { kind: 'schedule', cron: '0 3 * * *', timeZone },
      })
      expect(response.status).toBe(200)
      expect(((await response.json()) as Automation).trigger).toEqual({ kind: 'schedule', cron: '0 3 * * *', timeZone })
    }
  })

  test('PUT changes the settings; a schedule shows its next run', async () => {
    const response = await call('/v2/agent/demo/automations/fix-seo', 'PUT', {
      enabled: true,
      trigger: { kind: 'schedule', cron: '30  6 * * 1-5', timeZone: 'europe/paris' },
      mode: 'direct',
      instructions: '  Keep descriptions under 140 characters.  ',
    })
    expect(response.status).toBe(200)
    const automation = (await response.json()) as Automation
    expect(automation).toMatchObject({
      id: 'fix-seo',
      enabled: true,
      trigger: { kind: 'schedule', cron: '30 6 * * 1-5', timeZone: 'Europe/Paris' },
      mode: 'direct',
      instructions: 'Keep descriptions under 140 characters.',
    })
    expect(new Date(automation.nextRunAt!).getTime()).toBeGreaterThan(Date.now())
    // What is not in the body stays as it was.
    const again = (await (await call('/v2/agent/demo/automations/fix-seo', 'PUT', { enabled: false })).json()) as Automation
    expect(again).toMatchObject({
      enabled: false,
      mode: 'direct',
      nextRunAt: null,
      instructions: 'Keep descriptions under 140 characters.',
    })
    const code = await call('/v2/agent/demo/automations/draft-changelog', 'PUT', { trigger: { kind: 'code', repositories: ['acme/api'] } })
    expect(((await code.json()) as Automation).trigger).toEqual({ kind: 'code', repositories: ['acme/api'] })
  })

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ trigger: { kind: 'schedule', cron: '61 * * * *' } }, /^trigger\.cron: invalid value for minute/],
      [{ trigger: { kind: 'schedule', cron: '0 9 * *' } }, /^trigger\.cron: expected 5 fields/],
      [{ trigger: { kind: 'schedule', cron: '0 9 30 2 *' } }, /^trigger\.cron: .*never matches/],
      [
        { trigger: { kind: 'schedule', cron: '0 9 * * *', timeZone: 'Mars/Olympus' } },
        /^trigger\.timeZone: unknown time zone "Mars\/Olympus"/,
      ],
      [{ trigger: { kind: 'weekly' } }, /^trigger\.kind: must be \{ kind: "schedule"/],
      [
        { trigger: { kind: 'code', repositories: ['acme/web'] } },
        /^trigger\.repositories: "acme\/web" is not a code repository of project demo \(configured: acme\/api\)/,
      ],
      [{ mode: 'merge' }, /^mode: must be one of "pull_request", "direct"/],
      [{ languages: ['french!'] }, /^languages\.0: must be language codes/],
      // Only translate has target languages: on another automation they would be stored and mean nothing.
      [{ languages: ['fr'] }, /^languages: only the translate automation has target languages; Fix typos \(fix-typos\) has none/],
      [{ languages: [] }, /^languages: only the translate automation/],
      // Croner counts days and months from zero; the message quotes the field as written.
      [{ trigger: { kind: 'schedule', cron: '0 0 32 * *' } }, /^trigger\.cron: invalid value for day of month: 32 in "0 0 32 \* \*"/],
      [{ trigger: { kind: 'schedule', cron: '0 0 0 * *' } }, /^trigger\.cron: invalid value for day of month: 0 in/],
      [{ trigger: { kind: 'schedule', cron: '0 0 * 13 *' } }, /^trigger\.cron: invalid value for month: 13 in/],
      [{ trigger: { kind: 'schedule', cron: '0 0 * 0 *' } }, /^trigger\.cron: invalid value for month: 0 in/],
      [{ enabled: 'yes' }, /^enabled: must be a boolean/],
      [{ colour: 'blue' }, /unknown field\(s\) colour/],
      [{ enabled: true, trigger: { kind: 'code', repositories: [] } }, /^enabled: cannot turn on Translate: it needs a language model/],
    ]
    for (const [body, message] of cases) {
      const id = JSON.stringify(body).includes('"code"') && JSON.stringify(body).includes('enabled') ? 'translate' : 'fix-typos'
      const response = await call(`/v2/agent/demo/automations/${id}`, 'PUT', body)
      expect(response.status, JSON.stringify(body)).toBe(400)
      expect(await errorOf(response)).toMatch(message)
    }
    const sibling = await call('/v2/agent/sibling/automations/fix-typos', 'PUT', { trigger: { kind: 'code', repositories: ['acme/api'] } })
    expect(sibling.status).toBe(400)
    expect(await errorOf(sibling)).toMatch(/^trigger: a code trigger needs code repositories, and project sibling lists none/)
    expect((await call('/v2/agent/demo/automations/nope', 'PUT', { enabled: true })).status).toBe(404)
  })

  test('custom automations: created, listed after the predefined ones, deleted; predefined ones cannot be', async () => {
    const created = await call('/v2/agent/demo/automations', 'POST', {
      name: 'Rename the product',
      prompt: 'Replace "Lumen Flags" with "Lumen Toggles" everywhere',
      trigger: { kind: 'schedule', cron: '0 8 1 * *' },
    })
    expect(created.status).toBe(200)
    const custom = (await created.json()) as Automation
    expect(custom).toMatchObject({
      kind: 'custom',
      name: 'Rename the product',
      enabled: true,
      mode: 'pull_request',
      prompt: expect.stringContaining('Lumen Toggles'),
    })
    expect(custom.id).toMatch(/^auto_/)
    const languages = await call(`/v2/agent/demo/automations/${custom.id}`, 'PUT', { languages: ['fr'] })
    expect(languages.status).toBe(400)
    expect(await errorOf(languages)).toMatch(/^languages: only the translate automation has target languages/)
    const translate = await call('/v2/agent/demo/automations/translate', 'PUT', { languages: ['fr', 'pt-BR'] })
    expect(((await translate.json()) as Automation).languages).toEqual(['fr', 'pt-BR'])
    const { automations } = (await (await call('/v2/agent/demo/automations')).json()) as AutomationList
    expect(automations.at(-1)!.id).toBe(custom.id)
    expect((await call('/v2/agent/demo/automations', 'POST', { name: 'x', prompt: '', trigger: { kind: 'content' } })).status).toBe(400)
    expect(
      await errorOf(
        await call('/v2/agent/demo/automations', 'POST', { name: 'x', prompt: 'y', trigger: { kind: 'content' }, mode: 'now' }),
      ),
    ).toMatch(/^mode:/)

    const predefined = await call('/v2/agent/demo/automations/fix-typos', 'DELETE')
    expect(predefined.status).toBe(409)
    expect(await errorOf(predefined)).toMatch(/predefined: it cannot be deleted; turn it off instead/)
    expect((await call(`/v2/agent/sibling/automations/${custom.id}`, 'DELETE')).status).toBe(404)
    expect((await call(`/v2/agent/demo/automations/${custom.id}`, 'DELETE')).status).toBe(204)
    expect((await call(`/v2/agent/demo/automations/${custom.id}`, 'DELETE')).status).toBe(404)
  })

  test('the hosted trigger: 202 with the run and its job; 400 when off or not scheduled; 404 for another project’s', async () => {
    expect(await errorOf(await call('/workflow/demo/draft-changelog/trigger', 'POST'))).toMatch(/not enabled/)
    await call('/v2/agent/demo/automations/draft-changelog', 'PUT', { enabled: true, trigger: { kind: 'schedule', cron: '0 9 * * mon' } })
    const runs: string[] = []
    for (let i = 0; i < 3; i++) {
      const response = await call('/workflow/demo/draft-changelog/trigger', 'POST')
      expect(response.status).toBe(202)
      const body = (await response.json()) as { schemaId: string; instanceId: string; jobId: string }
      expect(body.schemaId).toBe('draft-changelog')
      expect((await call(`/v2/agent/demo/job/${body.jobId}`)).status).toBe(200)
      runs.push(body.instanceId)
      // Runs started in the same millisecond are ordered by id, not by when: the next one starts a millisecond later.
      const started = Date.now()
      while (Date.now() === started) await new Promise((resolve) => setTimeout(resolve, 1))
    }
    await call('/v2/agent/demo/automations/fix-typos', 'PUT', { enabled: true })
    const content = await call('/workflow/demo/fix-typos/trigger', 'POST')
    expect(content.status).toBe(400)
    expect(await errorOf(content)).toMatch(/runs on docs changes, not on a schedule/)
    const elsewhere = (await (
      await call('/v2/agent/sibling/automations', 'POST', {
        name: 'Sibling',
        prompt: 'Fix misspellings',
        trigger: { kind: 'schedule', cron: '0 9 * * *' },
      })
    ).json()) as Automation
    expect((await call(`/workflow/demo/${elsewhere.id}/trigger`, 'POST')).status).toBe(404)
    expect((await call('/workflow/demo/no-such-automation/trigger', 'POST')).status).toBe(404)

    // The run history, newest first, a page at a time.
    const first = (await (await call('/v2/agent/demo/automations/draft-changelog/runs?limit=2')).json()) as AutomationRunList
    expect(first.runs.map((run) => run.id)).toEqual([runs[2], runs[1]])
    expect(first.runs[0]).toMatchObject({ automationId: 'draft-changelog', reason: 'manual', status: 'active', prLink: null, note: null })
    const rest = (await (
      await call(`/v2/agent/demo/automations/draft-changelog/runs?limit=2&cursor=${first.nextCursor}`)
    ).json()) as AutomationRunList
    expect(rest).toEqual({ runs: [expect.objectContaining({ id: runs[0] })], nextCursor: null })
    expect((await call('/v2/agent/demo/automations/draft-changelog/runs?limit=0')).status).toBe(400)
    expect((await call('/v2/agent/demo/automations/nope/runs')).status).toBe(404)
    const listed = (await (await call('/v2/agent/demo/automations')).json()) as AutomationList
    expect(listed.automations.find((a) => a.id === 'draft-changelog')!.lastRun!.id).toBe(runs[2])
  })

  test('refused to other organizations, assistant keys, and read-only keys that would change something', async () => {
    const paths: Array<[string, string, unknown?]> = [
      ['/v2/agent/demo/automations', 'GET'],
      ['/v2/agent/demo/automations/fix-typos', 'PUT', { enabled: false }],
      ['/v2/agent/demo/automations', 'POST', { name: 'x', prompt: 'y', trigger: { kind: 'content' } }],
      ['/v2/agent/demo/automations/fix-typos', 'DELETE'],
      ['/v2/agent/demo/automations/fix-typos/runs', 'GET'],
      ['/workflow/demo/draft-changelog/trigger', 'POST'],
    ]
    for (const [path, method, body] of paths) {
      for (const key of [t.keys.otherAdmin, t.keys.assistant, t.keys.otherAssistant]) {
        expect((await call(path, method, body, key)).status, `${method} ${path}`).toBe(403)
      }
      expect((await t.app.request(path, { method })).status).toBe(401)
      const readOnly = await t.app.request(path, {
        method,
        headers: { ...read, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
      expect(readOnly.status, `read key: ${method} ${path}`).toBe(method === 'GET' ? 200 : 403)
    }
  })
})
