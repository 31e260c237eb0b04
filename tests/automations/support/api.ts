import { expect } from 'vitest'
import type { Automation, AutomationRun, AutomationRunList, UpdateAutomationInput } from '../../../shared/automations.ts'
import type { DocentConfigInput } from '../../../server/config.ts'

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
