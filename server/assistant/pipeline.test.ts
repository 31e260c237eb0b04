import type { LanguageModelV4StreamPart } from '@ai-sdk/provider'
import { APICallError } from 'ai'
import { MockLanguageModelV4, simulateReadableStream } from 'ai/test'
import { afterEach, describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../../tests/support/app.ts'
import { sequentialIds } from '../ids.ts'
import { DECLINE } from './prompt-format.ts'

// The answer pipeline (thread → retrieval → streamText → analytics → encoder) with the AI SDK's mock model passed to
// createDocent: no model server and no listening socket, the app called in-process. Ids come from a sequential id source
// (the question is stored as msg_1, the answer streams as msg_2), so the chunks compare as they are sent.

const QUESTION = 'How do percentage rollouts work?'
const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
}

/** A mock answer model that streams `deltas` (and `end`: a clean finish, or an error part after the text). */
function mockModel(deltas: string[], end: 'finish' | 'error' = 'finish') {
  const chunks: LanguageModelV4StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't' },
    ...deltas.map((delta): LanguageModelV4StreamPart => ({ type: 'text-delta', id: 't', delta })),
    ...(end === 'finish'
      ? ([
          { type: 'text-end', id: 't' },
          { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE },
        ] as const)
      : ([{ type: 'error', error: new Error('model server overloaded') }] as const)),
  ]
  return new MockLanguageModelV4({
    modelId: 'mock-answer',
    doStream: async () => ({ stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) }),
  })
}

let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  stop = undefined
})

/** Asks one question through the v1 or v2 route of a Docent whose answer model is `model`; returns the stream's lines. */
async function ask(version: 'v1' | 'v2', model: MockLanguageModelV4) {
  const t = await testDocent({}, { models: { answer: model }, ids: sequentialIds() })
  stop = () => t.docent.stop()
  const message =
    version === 'v1' ? { id: 'q', role: 'user', content: QUESTION } : { id: 'q', role: 'user', parts: [{ type: 'text', text: QUESTION }] }
  const response = await t.app.request(
    `/discovery/${version}/assistant/demo/message`,
    json({ fp: 'anonymous', messages: [message] }, bearer(t.keys.assistant)),
  )
  expect(response.status).toBe(200)
  const threadId = response.headers.get('x-thread-id')!
  const text = await response.text()
  const lines = version === 'v2' ? text.split('\n\n').filter(Boolean) : text.split('\n').filter(Boolean)
  // The lines before the text (start, thread, search, sources) depend only on the question, the same in every test.
  const found = lines.findIndex((line) => line.includes('"text-start"') || line.startsWith('0:'))
  const firstText = found === -1 ? lines.length : found
  return { t, threadId, lines, head: lines.slice(0, firstText), fromText: lines.slice(firstText) }
}

describe('v2 UI message stream', () => {
  test('an answer: start, the sources, the text, finish with the thread and resolution, [DONE]', async () => {
    const model = mockModel(['Rollouts ', 'are sticky per user. [1]'])
    const { t, threadId, lines } = await ask('v2', model)
    expect(lines).toMatchInlineSnapshot(`
      [
        "data: {"type":"start","messageId":"msg_2","messageMetadata":{"threadId":"thr_1"}}",
        "data: {"type":"source-url","sourceId":"source-1","url":"http://localhost/guides/percentage-rollouts#rollouts-inside-targeting-rules","title":"Percentage rollouts"}",
        "data: {"type":"source-url","sourceId":"source-2","url":"http://localhost/api-reference/v1/flags#set-a-percentage-rollout","title":"Flags (v1, legacy)"}",
        "data: {"type":"source-url","sourceId":"source-3","url":"http://localhost/guides/scheduled-changes#progressive-rollouts","title":"Scheduled changes and progressive rollouts"}",
        "data: {"type":"source-url","sourceId":"source-4","url":"http://localhost/concepts/targeting#operators","title":"Targeting rules"}",
        "data: {"type":"source-url","sourceId":"source-5","url":"http://localhost/api-reference/v2/flags#instructions","title":"Flags"}",
        "data: {"type":"text-start","id":"text-msg_2"}",
        "data: {"type":"text-delta","id":"text-msg_2","delta":"Rollouts "}",
        "data: {"type":"text-delta","id":"text-msg_2","delta":"are sticky per user. [1]"}",
        "data: {"type":"text-end","id":"text-msg_2"}",
        "data: {"type":"finish","threadId":"thr_1","messageMetadata":{"threadId":"thr_1","resolution":"answered"}}",
        "data: [DONE]",
      ]
    `)
    // The model got the question and the sources in its instructions.
    const prompt = model.doStreamCalls[0]!.prompt
    expect(prompt.find((m) => m.role === 'system')?.content).toContain('Percentage rollouts')
    expect(prompt.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'text', text: QUESTION }] })
    await expect
      .poll(async () => (await t.store.listMessages(threadId)).map((m) => [m.role, m.content]))
      .toEqual([
        ['user', QUESTION],
        ['assistant', 'Rollouts are sticky per user. [1]'],
      ])
  })

  test('a model error mid-answer: the text so far, text-end, an error chunk, then finish, unanswered', async () => {
    const { head, fromText } = await ask('v2', mockModel(['Rollouts ', 'are'], 'error'))
    expect(head).toHaveLength(6)
    expect(fromText).toMatchInlineSnapshot(`
      [
        "data: {"type":"text-start","id":"text-msg_2"}",
        "data: {"type":"text-delta","id":"text-msg_2","delta":"Rollouts "}",
        "data: {"type":"text-delta","id":"text-msg_2","delta":"are"}",
        "data: {"type":"text-end","id":"text-msg_2"}",
        "data: {"type":"error","errorText":"The answer was cut off: the model failed. Please try again."}",
        "data: {"type":"finish","threadId":"thr_1","messageMetadata":{"threadId":"thr_1","resolution":"unanswered"}}",
        "data: [DONE]",
      ]
    `)
  })

  test('a decline: the decline phrase, finish marks the question unanswered', async () => {
    const { head, fromText } = await ask('v2', mockModel([DECLINE]))
    expect(head).toHaveLength(6)
    expect(fromText).toMatchInlineSnapshot(`
      [
        "data: {"type":"text-start","id":"text-msg_2"}",
        "data: {"type":"text-delta","id":"text-msg_2","delta":"The docs do not cover this question."}",
        "data: {"type":"text-end","id":"text-msg_2"}",
        "data: {"type":"finish","threadId":"thr_1","messageMetadata":{"threadId":"thr_1","resolution":"unanswered"}}",
        "data: [DONE]",
      ]
    `)
  })

  test('a model server down before any text: retried once, then an error chunk and finish, unanswered', async () => {
    const model = new MockLanguageModelV4({
      doStream: async () => {
        throw new APICallError({ message: 'Service Unavailable', url: 'http://model.test', requestBodyValues: {}, statusCode: 503 })
      },
    })
    const { head, fromText } = await ask('v2', model)
    expect(model.doStreamCalls).toHaveLength(2)
    expect(head.slice(6)).toMatchInlineSnapshot(`
      [
        "data: {"type":"error","errorText":"The answer was cut off: the model failed. Please try again."}",
        "data: {"type":"finish","threadId":"thr_1","messageMetadata":{"threadId":"thr_1","resolution":"unanswered"}}",
        "data: [DONE]",
      ]
    `)
    expect(fromText).toEqual([])
  })
})

describe('v1 data stream', () => {
  test('an answer: step start, thread annotation, search tool call and result, sources, text, resolution, finish', async () => {
    const { lines } = await ask('v1', mockModel(['Rollouts ', 'are sticky per user. [1]']))
    expect(lines).toMatchInlineSnapshot(`
      [
        "f:{"messageId":"msg_2"}",
        "8:[{"threadId":"thr_1"}]",
        "9:{"toolCallId":"search-msg_2","toolName":"search","args":{"query":"How do percentage rollouts work?"}}",
        "a:{"toolCallId":"search-msg_2","result":{"results":[{"path":"guides/percentage-rollouts","url":"http://localhost/guides/percentage-rollouts#rollouts-inside-targeting-rules","metadata":{"title":"Percentage rollouts"}},{"path":"api-reference/v1/flags","url":"http://localhost/api-reference/v1/flags#set-a-percentage-rollout","metadata":{"title":"Flags (v1, legacy)"}},{"path":"guides/scheduled-changes","url":"http://localhost/guides/scheduled-changes#progressive-rollouts","metadata":{"title":"Scheduled changes and progressive rollouts"}},{"path":"concepts/targeting","url":"http://localhost/concepts/targeting#operators","metadata":{"title":"Targeting rules"}},{"path":"api-reference/v2/flags","url":"http://localhost/api-reference/v2/flags#instructions","metadata":{"title":"Flags"}}]}}",
        "h:{"sourceType":"url","id":"source-1","url":"http://localhost/guides/percentage-rollouts#rollouts-inside-targeting-rules","title":"Percentage rollouts"}",
        "h:{"sourceType":"url","id":"source-2","url":"http://localhost/api-reference/v1/flags#set-a-percentage-rollout","title":"Flags (v1, legacy)"}",
        "h:{"sourceType":"url","id":"source-3","url":"http://localhost/guides/scheduled-changes#progressive-rollouts","title":"Scheduled changes and progressive rollouts"}",
        "h:{"sourceType":"url","id":"source-4","url":"http://localhost/concepts/targeting#operators","title":"Targeting rules"}",
        "h:{"sourceType":"url","id":"source-5","url":"http://localhost/api-reference/v2/flags#instructions","title":"Flags"}",
        "0:"Rollouts "",
        "0:"are sticky per user. [1]"",
        "8:[{"threadId":"thr_1","resolution":"answered"}]",
        "e:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"isContinued":false}",
        "d:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"threadId":"thr_1"}",
      ]
    `)
  })

  test('a model error mid-answer: the text so far, an error part, unanswered, finish reason error', async () => {
    const { head, fromText } = await ask('v1', mockModel(['Rollouts ', 'are'], 'error'))
    expect(head).toHaveLength(9)
    expect(fromText).toMatchInlineSnapshot(`
      [
        "0:"Rollouts "",
        "0:"are"",
        "3:"The answer was cut off: the model failed. Please try again."",
        "8:[{"threadId":"thr_1","resolution":"unanswered"}]",
        "e:{"finishReason":"error","usage":{"promptTokens":0,"completionTokens":0},"isContinued":false}",
        "d:{"finishReason":"error","usage":{"promptTokens":0,"completionTokens":0},"threadId":"thr_1"}",
      ]
    `)
  })

  test('a decline: the decline phrase, the resolution annotation says unanswered', async () => {
    const { head, fromText } = await ask('v1', mockModel([DECLINE]))
    expect(head).toHaveLength(9)
    expect(fromText).toMatchInlineSnapshot(`
      [
        "0:"The docs do not cover this question."",
        "8:[{"threadId":"thr_1","resolution":"unanswered"}]",
        "e:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"isContinued":false}",
        "d:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"threadId":"thr_1"}",
      ]
    `)
  })
})
