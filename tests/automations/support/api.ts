import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { Automation, AutomationRun, AutomationRunList, UpdateAutomationInput } from '../../../shared/automations.ts'
import type { DocentConfigInput } from '../../../server/config.ts'
import { createKey } from '../../../server/keys/keys.ts'
import { consoleLogger } from '../../../server/log.ts'
import { createDocent, type DocentOverrides } from '../../../server/mod.ts'

type App = { request(path: string, init?: RequestInit): Response | Promise<Response> }

/** The demo project as these tests configure it: the demo docs, the embedded local git host, and what they add. */
export function demoProject(overrides: Partial<ProjectInput> = {}): ProjectInput {
  return {
    id: 'demo',
    organization: 'demo',
    domain: 'demo',
    docs: { directory: 'demo/docs' },
    agent: { repository: 'local:demo' },
    ...overrides,
  }
}
type ProjectInput = DocentConfigInput['projects'][number]

/** The automations API of the demo project, with an admin key's headers. */
export function automationsApi(app: App, admin: Record<string, string>) {
  const runs = async (id: string): Promise<AutomationRun[]> =>
    ((await (await app.request(`/v2/agent/demo/automations/${id}/runs?limit=100`, { headers: admin })).json()) as AutomationRunList).runs
  return {
    async configure(id: string, body: UpdateAutomationInput): Promise<Automation> {
      const response = await app.request(`/v2/agent/demo/automations/${id}`, {
        method: 'PUT',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      expect(response.status, await response.clone().text()).toBe(200)
      return (await response.json()) as Automation
    },
    runs,
    /** Waits until the automation has `count` runs and none is active; returns them, newest first. */
    async settled(id: string, count: number): Promise<AutomationRun[]> {
      let list: AutomationRun[] = []
      await until(
        async () => (list = await runs(id)).length >= count && list.every((run) => run.status !== 'active'),
        `${count} settled runs of ${id}`,
      )
      return list
    },
  }
}

export async function until(check: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  for (let i = 0; i < 2400; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${what} never held`)
}

/**
 * A started Docent serving the demo project (open to any origin) from a fresh data directory on the memory store, with
 * an admin and an assistant key's headers; `stop` removes it all.
 */
export async function readersDocent(name: string, overrides: DocentOverrides = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), `docent-${name}-`))
  const docent = await createDocent(
    { store: { kind: 'memory' }, dataDir, agentWorker: { pollMs: 100 }, projects: [demoProject({ allowedOrigins: ['*'] })] },
    { log: consoleLogger('silent'), ...overrides },
  )
  await docent.start()
  const { store } = docent.context
  const admin = { authorization: `Bearer ${(await createKey(store, { kind: 'admin', organization: 'demo' })).secret}` }
  const assistant = {
    authorization: `Bearer ${(await createKey(store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret}`,
  }
  const stop = async () => {
    await docent.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
  return { docent, dataDir, admin, assistant, stop }
}
