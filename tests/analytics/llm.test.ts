import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AgentJob } from '../../shared/agent.ts'
import { type ConversationList, type Gap, GapList } from '../../shared/analytics.ts'
import { serveApp } from '../assistant/support.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { type ChatRequest, type ScriptedOpenAI, startScriptedOpenAI } from '../support/scripted-openai.ts'
import { ask, eventually } from './support.ts'

// With an LLM (a scripted OpenAI-compatible server, the one fake allowed): an answer that starts with the fixed phrase,
// or cites nothing, is unanswered; fixing the gap needs no writer's text, the agent is given the readers' questions and
// drafts the change; the merged page answers the question on re-asking.

const RUBY_PAGE =
  '---\ntitle: Ruby SDK\n---\n\nIs there a Ruby SDK? Yes: install it with `gem install lumen-flags` and create a client with your server-side SDK key.\n'

/** The answer model: from the sources in its system prompt, as an LLM following the prompt's rules would. */
function answer(request: ChatRequest, model: ScriptedOpenAI): string {
  const prompt = model.promptOf(request)
  const ruby = /<source id="(\d+)"[^>]*>[^<]*gem install lumen-flags/.exec(prompt)
  if (ruby) return `Yes: install it with \`gem install lumen-flags\` [${ruby[1]}].`
  const question = String(request.messages.at(-1)?.content ?? '')
  if (/ruby/i.test(question)) return 'The docs do not cover this question. The closest page is the SDK overview [1].'
  if (/segment/i.test(question)) return 'Segments group contexts by shared attributes.'
  return 'It is in the docs [1].'
}

let model: ScriptedOpenAI
const agentPrompts: string[] = []
let dataDir: string
let t: Awaited<ReturnType<typeof testDocent>> & { url: string; stopHttp(): Promise<void> }

beforeAll(async () => {
  let agentStep = 0
  model = await startScriptedOpenAI((request) => {
    if (!request.tools?.length) return { text: answer(request, model) }
    agentPrompts.push(model.promptOf(request))
    agentStep++
    if (agentStep === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: 'sdks/ruby.mdx', content: RUBY_PAGE } }] }
    return { toolCalls: [{ name: 'finish', arguments: { summary: 'Add the Ruby SDK page\n\nReaders asked for a Ruby SDK.' } }] }
  })
  dataDir = await mkdtemp(join(tmpdir(), 'docent-llm-gap-'))
  const docent = await testDocent(
    {
      worker: true,
      // Fast polls: the test follows a gap's fix from job to merge.
      agentWorker: { pollMs: 100 },
      gapPollMs: 100,
      dataDir,
      publicUrl: 'http://docs.test',
      model: { provider: 'openai', id: 'gpt-test', baseURL: model.baseURL, apiKey: { env: 'OPENAI_API_KEY' } },
      projects: [
        {
          id: 'demo',
          organization: 'demo',
          domain: 'demo',
          docs: { repository: 'local:demo', ref: 'main', seed: 'demo/docs' },
          allowedOrigins: ['*'],
          agent: { repository: 'local:demo' },
        },
      ],
    },
    { env: { OPENAI_API_KEY: 'sk-test' } },
  )
  await docent.docent.start()
  const http = await serveApp(docent.app)
  t = Object.assign(docent, { url: http.url, stopHttp: http.close })
})
afterAll(async () => {
  await t?.stopHttp()
  await t?.docent.stop()
  await model?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('gaps with an LLM', () => {
  test('declines and uncited answers are unanswered; the agent fixes the gap from the readers’ questions; the merge is verified', async () => {
    const admin = bearer(t.keys.admin)
    const declined = await ask(t.url, t.keys.assistant, 'Is there a Ruby SDK?', { origin: 'https://docs.example.com' })
    expect(declined.resolution).toBe('unanswered')
    const uncited = await ask(t.url, t.keys.assistant, 'What is a segment?')
    expect(uncited.resolution).toBe('unanswered')
    const conversations = (await (await t.app.request('/v1/analytics/demo/assistant', { headers: admin })).json()) as ConversationList
    expect(conversations.conversations.map((c) => [c.query, c.resolutionStatus, c.model])).toEqual([
      ['What is a segment?', 'unanswered', 'gpt-test'],
      ['Is there a Ruby SDK?', 'unanswered', 'gpt-test'],
    ])

    const { gaps } = GapList.parse(await (await t.app.request('/v1/analytics/demo/gaps', { headers: admin })).json())
    const ruby = gaps.find((gap) => gap.title === 'Is there a Ruby SDK?')!
    // No writer's text: with an LLM the agent drafts from the docs.
    const started = await t.app.request(`/v1/analytics/demo/gaps/${ruby.id}/fix`, json({ prompt: 'Keep it to one short page.' }, admin))
    expect(started.status).toBe(200)
    const job = (await started.json()) as AgentJob
    expect(job.model).toBe('gpt-test')
    const done = await eventually(
      async () => (await (await t.app.request(`/v2/agent/demo/job/${job.id}`, { headers: admin })).json()) as AgentJob,
      (j) => j.status !== 'active',
      'the LLM fix job',
    )
    expect(done).toMatchObject({ status: 'completed', error: null })
    expect(agentPrompts[0]).toContain(`Docent gap ${ruby.id}`)
    expect(agentPrompts[0]).toContain('- "Is there a Ruby SDK?"')
    expect(agentPrompts[0]).toContain('More instructions: Keep it to one short page.')
    expect(agentPrompts[0]).toContain('do not invent them')

    expect((await t.app.request(`/v2/agent/demo/job/${job.id}/merge`, { method: 'POST', headers: admin })).status).toBe(200)
    const fixed = await eventually(
      async () => (await (await t.app.request(`/v1/analytics/demo/gaps/${ruby.id}`, { headers: admin })).json()) as Gap,
      (gap) => gap.status === 'fixed' || gap.status === 'open',
      'the gap after the merge',
    )
    expect(fixed).toMatchObject({ status: 'fixed', reason: null })
    const again = await ask(t.url, t.keys.assistant, 'Is there a Ruby SDK?')
    expect(again.resolution).toBe('answered')
    expect(again.sources.map((url) => new URL(url).pathname)).toContain('/sdks/ruby')
  })
})
