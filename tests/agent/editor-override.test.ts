import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MockLanguageModelV4 } from 'ai/test'
import { afterEach, expect, test } from 'vitest'
import type { AgentEvent, AgentJob } from '../../shared/agent.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { toolStep } from './support/model-steps.ts'

const cleanup: Array<() => Promise<void>> = []
afterEach(async () => {
  for (const step of cleanup.splice(0)) await step()
})

test('DocentOverrides.models.editor: the whole job runs on the given model, and the job names it', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-editor-'))
  const editor = new MockLanguageModelV4({
    modelId: 'scripted-editor',
    doGenerate: [
      toolStep(['write_file', { path: 'guides/rollback.mdx', content: '---\ntitle: Rollback\n---\n\nTurn the flag off.\n' }]),
      toolStep(['finish', { summary: 'Add a rollback page\n\nOne new guide.' }]),
    ],
  })
  const t = await testDocent({ worker: true, dataDir, publicUrl: 'http://docs.test' }, { models: { editor } })
  await t.docent.start()
  cleanup.push(
    () => t.docent.stop(),
    () => rm(dataDir, { recursive: true, force: true }),
  )
  const admin = bearer(t.keys.admin)

  const created = (await (await t.app.request('/v2/agent/demo/job', json({ prompt: 'Add a rollback page' }, admin))).json()) as AgentJob
  expect(created).toMatchObject({ status: 'active', model: 'scripted-editor' })
  let job = created
  while (job.status === 'active') {
    await new Promise((resolve) => setTimeout(resolve, 20))
    job = (await (await t.app.request(`/v2/agent/demo/job/${created.id}`, { headers: admin })).json()) as AgentJob
  }
  expect(job).toMatchObject({ status: 'completed', error: null, prLink: `http://docs.test/review/${created.id}` })
  expect(editor.doGenerateCalls).toHaveLength(2)
  const { events } = (await (await t.app.request(`/v2/agent/demo/job/${created.id}/events`, { headers: admin })).json()) as {
    events: AgentEvent[]
  }
  expect(events.map((event) => event.type)).toMatchInlineSnapshot(`
    [
      "message",
      "run.started",
      "message",
      "file.changed",
      "commit",
      "push",
      "pr",
      "run.finished",
    ]
  `)
  expect(await (await t.app.request(`/review/${created.id}`)).text()).toContain('Turn the flag off.')
})
