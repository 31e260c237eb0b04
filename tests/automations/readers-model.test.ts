import type { LanguageModelV4CallOptions } from '@ai-sdk/provider'
import { MockLanguageModelV4 } from 'ai/test'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { toolStep } from '../agent/support/model-steps.ts'
import { automationsApi, readersDocent } from './support/api.ts'

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

let t: Awaited<ReturnType<typeof readersDocent>>
beforeAll(async () => {
  t = await readersDocent('readers-model', { models: { editor } })
})
afterAll(() => t?.stop())

describe('fill gaps with a model', () => {
  test('the question reaches the model escaped; a page left not valid MDX fails the run and nothing is pushed', async () => {
    const asked = await t.docent.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { ...t.assistant, 'content-type': 'application/json' },
      body: JSON.stringify({
        fp: 'anonymous',
        messages: [
          { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'does lumen support kayak <img src=x onerror={alert(1)}> rentals' }] },
        ],
      }),
    })
    expect(asked.status).toBe(200)
    await asked.text()
    const api = automationsApi(t.docent.app, t.admin)
    await api.configure('fill-gaps', { enabled: true })
    const triggered = await t.docent.app.request('/workflow/demo/fill-gaps/trigger', { method: 'POST', headers: t.admin })
    expect(triggered.status).toBe(202)
    const [run] = await api.settled('fill-gaps', 1)
    expect(prompts.join('\n')).toContain('kayak \\\\<img src=x onerror=\\\\{alert(1)\\\\}\\\\> rentals')
    expect(run).toMatchObject({ status: 'failed', prLink: null })
    expect(run!.note).toMatch(/troubleshooting\/faq\.md not valid MDX.*nothing was pushed/)
  })
})
