import { afterAll, beforeAll, expect, test, vi } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'
import { startAnswer } from '../../server/assistant/pipeline.ts'
import { configuredModels } from '../../server/models/registry.ts'
import { readUntil, startGatedModel } from './gated-model.ts'
import { serveApp } from './support.ts'

// Answers that do not end normally: the model fails after some text, or the reader goes away mid-answer.
// Nothing the reader asked is lost, and the model is stopped when nobody listens any more.

const gated = await startGatedModel()
let t: Awaited<ReturnType<typeof testDocent>>
let server: Awaited<ReturnType<typeof serveApp>>
beforeAll(async () => {
  t = await testDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } })
  server = await serveApp(t.app)
})
afterAll(async () => {
  await server.close()
  await gated.close()
  await t.docent.stop()
})

const question = 'How do percentage rollouts work?'
const body = (version: 'v1' | 'v2') => ({
  fp: 'anonymous',
  messages: [
    version === 'v1' ? { id: 'q', role: 'user', content: question } : { id: 'q', role: 'user', parts: [{ type: 'text', text: question }] },
  ],
})

test('v2: the model fails after some text → the client gets the text, an error part and finish; the thread keeps question and partial answer, marked cut', async () => {
  const pending = t.app.request('/discovery/v2/assistant/demo/message', json(body('v2'), bearer(t.keys.assistant)))
  const turn = await gated.nextTurn()
  turn.write('Rollouts are ')
  const response = await pending
  const reader = response.body!.getReader()
  const before = await readUntil(reader, (text) => text.includes('"text-delta"'))
  turn.drop()
  const rest = await readUntil(reader, () => false)
  const types = (before + rest)
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)).type)
  expect(types.slice(-4)).toEqual(['text-delta', 'text-end', 'error', 'finish'])
  expect(rest).toContain('"errorText":"The answer was cut off: the model failed. Please try again."')
  expect(rest.endsWith('data: [DONE]\n\n')).toBe(true)
  const stored = await t.store.listMessages(response.headers.get('x-thread-id')!)
  expect(stored.map((m) => [m.role, m.content])).toEqual([
    ['user', question],
    ['assistant', 'Rollouts are \n\n*The answer was cut off: the model failed.*'],
  ])
})

test('v2 over HTTP: the reader disconnects mid-answer → the model call is aborted and the thread keeps question and partial answer', async () => {
  const abort = new AbortController()
  const pending = fetch(`${server.url}/discovery/v2/assistant/demo/message`, {
    ...json(body('v2'), bearer(t.keys.assistant)),
    signal: abort.signal,
  })
  const turn = await gated.nextTurn()
  turn.write('Partial answer')
  const response = await pending
  const threadId = response.headers.get('x-thread-id')!
  await readUntil(response.body!.getReader(), (text) => text.includes('"text-delta"'))
  abort.abort()
  await turn.closed
  await vi.waitFor(async () => {
    const stored = await t.store.listMessages(threadId)
    expect(stored.map((m) => [m.role, m.content])).toEqual([
      ['user', question],
      ['assistant', 'Partial answer'],
    ])
  })
})

test('v1 in-process: cancelling the body stores the exchange once, and the thread can be continued', async () => {
  const pending = t.app.request('/discovery/v1/assistant/demo/message', json(body('v1'), bearer(t.keys.assistant)))
  const turn = await gated.nextTurn()
  turn.write('Half')
  const response = await pending
  const threadId = response.headers.get('x-thread-id')!
  const reader = response.body!.getReader()
  await readUntil(reader, (text) => text.includes('0:"Half"'))
  await reader.cancel()
  await turn.closed
  await vi.waitFor(async () => expect((await t.store.getThread('demo', threadId))?.messageCount).toBe(2))

  const next = t.app.request('/discovery/v1/assistant/demo/message', json({ ...body('v1'), threadId }, bearer(t.keys.assistant)))
  const second = await gated.nextTurn()
  // The client sent only its new question: the stored turns come back for the model.
  expect(second.request.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
    ['user', question],
    ['assistant', 'Half'],
    ['user', question],
  ])
  second.write('Whole answer.')
  second.end()
  const text = await (await next).text()
  expect(text).toContain('0:"Whole answer."')
  // A scripted answer citing no source: the docs did not answer it.
  expect(text).toContain(`8:[{"threadId":"${threadId}","resolution":"unanswered"}]`)
  expect((await t.store.listMessages(threadId)).map((m) => m.content)).toEqual([question, 'Half', question, 'Whole answer.'])
})

test('a model that stalls mid-answer is cut off by the chunk timeout: the answer ends with an error, the thread keeps the partial answer, marked cut', async () => {
  const ctx = t.docent.context
  const project = ctx.projects.byId('demo')!
  const model = (await configuredModels(ctx.config, { fetch: ctx.fetch, env: ctx.env })).answer
  const pending = startAnswer(ctx, project, model, {
    fp: 'anonymous',
    turns: [{ role: 'user', text: question }],
    pageSize: 3,
    origin: 'http://localhost',
    timeouts: { firstChunkMs: 60_000, chunkMs: 200, totalMs: 60_000 },
  })
  const turn = await gated.nextTurn()
  turn.write('Stalled after this')
  const answer = await pending
  const events: unknown[] = []
  const reader = answer.events.getReader()
  for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value)
  expect(events).toEqual([
    { type: 'text', delta: 'Stalled after this' },
    { type: 'error', message: 'The answer was cut off: the model took too long. Please try again.' },
  ])
  await turn.closed
  const stored = await ctx.store.listMessages(answer.threadId)
  expect(stored.map((m) => m.content)).toEqual([question, 'Stalled after this\n\n*The answer was cut off: the model took too long.*'])
})

test('v2: a question the store cannot keep (a full disk, the database gone) is not answered: an error part, no text, nothing half-stored', async () => {
  const { store } = t.docent.context
  const saveThreads = store.saveThreads.bind(store)
  store.saveThreads = () => Promise.reject(new Error('could not extend file: No space left on device'))
  try {
    const pending = t.app.request('/discovery/v2/assistant/demo/message', json(body('v2'), bearer(t.keys.assistant)))
    const turn = await gated.nextTurn()
    turn.write('Rollouts are ')
    turn.end()
    const response = await pending
    const stream = await response.text()
    expect(stream).not.toContain('"text-delta"')
    expect(stream).toContain('"errorText":"Your question could not be saved, so it was not answered. Please try again in a moment."')
    expect(stream.endsWith('data: [DONE]\n\n')).toBe(true)
    store.saveThreads = saveThreads
    expect(await t.store.listMessages(response.headers.get('x-thread-id')!)).toEqual([])
  } finally {
    store.saveThreads = saveThreads
  }
  // Once the store is back, the same question is answered and kept.
  const pending = t.app.request('/discovery/v2/assistant/demo/message', json(body('v2'), bearer(t.keys.assistant)))
  const turn = await gated.nextTurn()
  turn.write('Rollouts are gradual.')
  turn.end()
  const response = await pending
  expect(await response.text()).toContain('"delta":"Rollouts are gradual."')
  await vi.waitFor(async () =>
    expect((await t.store.listMessages(response.headers.get('x-thread-id')!)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
    ]),
  )
})

test('the stream ends once the answer is stored: another instance, reading only the store, finds it at once', async () => {
  // A slow store (a busy database): the answer's write takes a while after the model's last word.
  const { store } = t.docent.context
  const saveThreads = store.saveThreads.bind(store)
  store.saveThreads = async (writes) => {
    if (writes.some((write) => write.messages.some((message) => message.role === 'assistant'))) await new Promise((r) => setTimeout(r, 300))
    return saveThreads(writes)
  }
  try {
    const pending = t.app.request('/discovery/v2/assistant/demo/message', json(body('v2'), bearer(t.keys.assistant)))
    const turn = await gated.nextTurn()
    turn.write('Rollouts are gradual.')
    turn.end()
    const response = await pending
    expect((await response.text()).endsWith('data: [DONE]\n\n')).toBe(true)
    // Straight from the store, as another instance reads it: no wait for this process's queued writes.
    const stored = await t.store.listMessages(response.headers.get('x-thread-id')!)
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ['user', question],
      ['assistant', 'Rollouts are gradual.'],
    ])
  } finally {
    store.saveThreads = saveThreads
  }
})
