import { createServer } from 'node:http'
import * as ai7 from 'ai'
import { afterAll, expect, test } from 'vitest'
import { ANSWER_MAX_OUTPUT_TOKENS, LENGTH_NOTE, MAX_ANSWER_CHARS, startAnswer } from '../../server/assistant/pipeline.ts'
import { configuredModels } from '../../server/models/registry.ts'
import { bearer, json } from '../support/app.ts'
import { closeServer, listenLocal } from '../support/local-http.ts'
import { startGatedModel } from './gated-model.ts'
import { type ChatModule, chatOf, serveTestDocent, textOf } from './support.ts'

// Answers a model does not end well: one that writes without end, one that never answers, one whose stream is
// garbled. Each ends for the reader with what users expect (a bounded answer, an error part, one error), and the
// thread shows how the answer ended.

const gated = await startGatedModel()
afterAll(() => gated.close())
const t = serveTestDocent({ model: { provider: 'openai', id: 'gated', baseURL: gated.baseURL } })

const question = 'How do percentage rollouts work?'
const ask = () =>
  t.app.request(
    '/discovery/v2/assistant/demo/message',
    json({ fp: 'anonymous', messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }] }, bearer(t.keys.assistant)),
  )
const chunksOf = (stream: string) =>
  stream
    .split('\n\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; errorText?: string; messageMetadata?: { resolution?: string } })

test('an answer asks for at most ANSWER_MAX_OUTPUT_TOKENS; one the model ends at that limit says it was cut', async () => {
  const pending = ask()
  const turn = await gated.nextTurn()
  expect((turn.request as { max_tokens?: number }).max_tokens).toBe(ANSWER_MAX_OUTPUT_TOKENS)
  turn.write('Rollouts are sticky [1] and')
  turn.end('length')
  const response = await pending
  const chunks = chunksOf(await response.text())
  expect(chunks.map((c) => c.type)).not.toContain('error')
  expect(chunks.at(-1)!.type).toBe('finish')
  const stored = await t.store.listMessages(response.headers.get('x-thread-id')!)
  expect(stored.map((m) => m.content)).toEqual([question, `Rollouts are sticky [1] and${LENGTH_NOTE}`])
})

test('a model that ignores max_tokens is stopped at MAX_ANSWER_CHARS: an AI SDK client reads a whole answer ending in the note', async () => {
  let threadId: string | undefined
  const chat = chatOf(ai7 as unknown as ChatModule, {
    api: `${t.url}/discovery/v2/assistant/demo/message`,
    key: t.keys.assistant,
    body: () => ({ fp: 'anonymous', threadId }),
  })
  const sent = chat.sendMessage({ text: question })
  const turn = await gated.nextTurn()
  const piece = `${'word '.repeat(199)}[1] `
  let written = 0
  const closed = turn.closed.then(() => 'closed' as const)
  // Writes until Docent hangs up, as a model caught in a loop would (bounded, should the test fail).
  while (written < MAX_ANSWER_CHARS * 4 && (await Promise.race([closed, new Promise((r) => setTimeout(r, 1, 'open'))])) === 'open') {
    turn.write(piece)
    written += piece.length
  }
  expect(await Promise.race([closed, 'open'])).toBe('closed')
  await sent
  expect(chat.error).toBeUndefined()
  expect(chat.status).toBe('ready')
  const answer = chat.messages.at(-1)!
  const text = textOf(answer)
  expect(text.endsWith(LENGTH_NOTE)).toBe(true)
  expect(text.length).toBe(MAX_ANSWER_CHARS + LENGTH_NOTE.length)
  expect(text.slice(0, 1000)).toBe(piece.repeat(4).slice(0, 1000))
  threadId = (answer.metadata as { threadId: string }).threadId
  const stored = await t.store.listMessages(threadId)
  expect(stored.map((m) => m.content)).toEqual([question, text])
})

test('a model server that never answers (no headers) is given up after firstChunkMs, once, with an error the reader gets', async () => {
  const requests: string[] = []
  const silent = createServer((req) => void requests.push(req.url ?? ''))
  const url = await listenLocal(silent)
  try {
    const ctx = t.docent.context
    const config = { ...ctx.config, model: { ...ctx.config.model, baseURL: `${url}/v1` } }
    const model = (await configuredModels(config, { fetch: ctx.fetch, env: ctx.env })).answer
    const answer = await startAnswer(ctx, ctx.projects.byId('demo')!, model, {
      fp: 'anonymous',
      turns: [{ role: 'user', text: question }],
      pageSize: 3,
      origin: 'http://localhost',
      timeouts: { firstChunkMs: 200, chunkMs: 60_000, totalMs: 600_000 },
    })
    const events: unknown[] = []
    const reader = answer.events.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) events.push(next.value)
    expect(events).toEqual([{ type: 'error', message: 'The answer was cut off: the model took too long. Please try again.' }])
    // Not retried: a second wait as long would double the reader's.
    expect(requests).toEqual(['/v1/chat/completions'])
  } finally {
    await closeServer(silent)
  }
})

test('a garbled model stream gives the reader one error part, and the thread marks the partial answer as cut', async () => {
  const pending = ask()
  const turn = await gated.nextTurn()
  turn.write('Partial answer that gets cut')
  turn.writeRaw('data: {not json at all\n\n')
  turn.writeRaw(`data: ${JSON.stringify({ weird: true })}\n\n`)
  turn.writeRaw('garbage line\n\n')
  turn.end()
  const response = await pending
  const chunks = chunksOf(await response.text())
  expect(chunks.filter((c) => c.type === 'error')).toEqual([
    { type: 'error', errorText: 'The answer was cut off: the model failed. Please try again.' },
  ])
  const stored = await t.store.listMessages(response.headers.get('x-thread-id')!)
  expect(stored.map((m) => m.content)).toEqual([question, 'Partial answer that gets cut\n\n*The answer was cut off: the model failed.*'])
})
