import { afterAll, expect, test, vi } from 'vitest'
import type { Logger } from '../../server/log.ts'
import { bearer, json, testDocent } from '../support/app.ts'
import { startScriptedOpenAI } from '../support/scripted-openai.ts'
import { startGatedModel } from './gated-model.ts'

// What the assistant writes to the log: never the model's API key, even when the model server echoes it back; and a
// stream the reader cut off mid-answer.

const lines: string[] = []
const log: Logger = {
  info: (message, fields) => void lines.push(`info ${message} ${JSON.stringify(fields ?? {})}`),
  warn: (message, fields) => void lines.push(`warn ${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => void lines.push(`error ${message} ${JSON.stringify(fields ?? {})}`),
}
const API_KEY = 'sk-proj-Docent0123456789abcdefTEST'
const cleanup: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const step of cleanup) await step()
})
const question = { fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: 'How do I install the SDK?' }] }] }

test('the model API key never reaches the log, even when the model server echoes it', async () => {
  // As OpenAI answers a wrong key, and as some compatible servers echo the whole request.
  const model = await startScriptedOpenAI(() => ({
    status: 401,
    error: `Incorrect API key provided: ${API_KEY}. Request headers: {"authorization":"Bearer ${API_KEY}"}`,
  }))
  const t = await testDocent(
    { model: { provider: 'openai', id: 'gpt-test', baseURL: model.baseURL, apiKey: { env: 'OPENAI_API_KEY' } } },
    { log, env: { OPENAI_API_KEY: API_KEY } },
  )
  cleanup.push(
    () => t.docent.stop(),
    () => model.close(),
  )
  const response = await t.app.request('/discovery/v2/assistant/demo/message', json(question, bearer(t.keys.assistant)))
  expect(await response.text()).toContain('"type":"error"')
  await vi.waitFor(() => expect(lines.some((line) => line.includes('answer model failed'))).toBe(true))
  const logged = lines.join('\n')
  expect(logged).toContain('Incorrect API key provided')
  expect(logged).not.toContain(API_KEY)
  expect(logged).not.toContain(API_KEY.slice(8))
})

test('a stream the reader cuts off mid-answer is logged', async () => {
  const gated = await startGatedModel()
  const t = await testDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } }, { log })
  cleanup.push(
    () => t.docent.stop(),
    () => gated.close(),
  )
  const pending = t.app.request('/discovery/v2/assistant/demo/message', json(question, bearer(t.keys.assistant)))
  const turn = await gated.nextTurn()
  turn.write('Install it with ')
  const response = await pending
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('Install it with')) text += new TextDecoder().decode((await reader.read()).value)
  await reader.cancel()
  await vi.waitFor(() =>
    expect(lines.find((line) => line.includes('answer stream cut by the reader'))).toContain(response.headers.get('x-thread-id')!),
  )
})

test('a refused key or signature is logged with the method, path, address and reason, never the key', async () => {
  const t = await testDocent({}, { log })
  cleanup.push(() => t.docent.stop())
  lines.length = 0
  const guessed = 'svc_dsc_GuessedAssistantKey0000000000001'
  const env = { ip: '203.0.113.7' }
  expect((await t.app.request('/discovery/v2/assistant/demo/message', json(question, bearer(guessed)), env)).status).toBe(401)
  // The right kind of key for another organization's project.
  expect((await t.app.request('/v2/agent/demo/job/j1', { headers: { authorization: `Bearer ${t.keys.otherAdmin}` } }, env)).status).toBe(
    403,
  )
  const refused = lines.filter((line) => line.startsWith('warn request refused'))
  expect(refused).toHaveLength(2)
  expect(refused[0]).toContain(
    '"status":401,"method":"POST","path":"/discovery/v2/assistant/demo/message","ip":"203.0.113.7","reason":"unknown API key"',
  )
  expect(refused[1]).toContain('"status":403,"method":"GET","path":"/v2/agent/demo/job/j1"')
  expect(lines.join('\n')).not.toContain(guessed)
  expect(lines.join('\n')).not.toContain(t.keys.otherAdmin)
})
