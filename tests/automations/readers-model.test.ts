import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { consoleLogger } from '../../server/log.ts'
import { createDocent, type Docent } from '../../server/mod.ts'
import { createKey } from '../../server/keys/keys.ts'
import { toolStep } from '../agent/support/model-steps.ts'
import { automationsApi, demoProject } from './support/api.ts'

// "Fill gaps" with a model: readers' questions reach it escaped, as their words and not instructions, and a run that
// leaves a page it changed not valid MDX (a reader's text copied in as markup) fails before anything is pushed.

const prompts: string[] = []
/** A model that copies a reader's question into the FAQ as raw markup, as a careless model might. */
const editor = new MockLanguageModelV4({
  modelId: 'scripted-editor',
  doGenerate: async (options: LanguageModelV4CallOptions) => {
    if (options.prompt.some((message) => message.role === 'tool')) return toolStep(['finish', { summary: 'Answer a reader question' }])
    prompts.push(JSON.stringify(options.prompt))
    return toolStep([
      'write_file',
      {
        path: 'troubleshooting/faq.md',
        content: '---\ntitle: FAQ\n---\n\n### does lumen support kayak <img src=x onerror={alert(1)> rentals\n',
      },
    ])
  },
})

let docent: Docent
let dataDir: string
let admin: Record<string, string>
let assistant: Record<string, string>
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-readers-model-'))
  docent = await createDocent(
    { store: { kind: 'memory' }, dataDir, agentWorker: { pollMs: 100 }, projects: [demoProject({ allowedOrigins: ['*'] })] },
    { log: consoleLogger('silent'), models: { editor } },
  )
  await docent.start()
  const { store } = docent.context
  admin = { authorization: `Bearer ${(await createKey(store, { kind: 'admin', organization: 'demo' })).secret}` }
  assistant = { authorization: `Bearer ${(await createKey(store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret}` }
})
afterAll(async () => {
  await docent?.stop()
  await rm(dataDir, { recursive: true, force: true })
})

describe('fill gaps with a model', () => {
  test('the question reaches the model escaped; a page left not valid MDX fails the run and nothing is pushed', async () => {
    const asked = await docent.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { ...assistant, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [
          { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'does lumen support kayak <img src=x onerror={alert(1)}> rentals' }] },
        ],
      }),
    })
    expect(asked.status).toBe(200)
    await asked.text()
    const api = automationsApi(docent.app, admin)
    await api.configure('fill-gaps', { enabled: true })
    const triggered = await docent.app.request('/workflow/demo/fill-gaps/trigger', { method: 'POST', headers: admin })
    expect(triggered.status).toBe(202)
    const [run] = await api.settled('fill-gaps', 1)
    expect(prompts.join('\n')).toContain('kayak \\\\<img src=x onerror=\\\\{alert(1)\\\\}\\\\> rentals')
    expect(run).toMatchObject({ status: 'failed', prLink: null })
    expect(run!.note).toMatch(/troubleshooting\/faq\.md not valid MDX.*nothing was pushed/)
  })
})
