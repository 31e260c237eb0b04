import { processDataStream } from 'ai-sdk-ui-utils-v1'
import { describe, expect, test } from 'vitest'
import { dataStream } from './data-stream.ts'
import type { Answer, AnswerEvent } from './pipeline.ts'
import { uiMessageStream } from './ui-message-stream.ts'

function answerOf(events: AnswerEvent[]): Answer {
  return {
    threadId: 'thr_1',
    messageId: 'msg_1',
    query: 'how do rollouts work',
    sources: [
      { title: 'Percentage rollouts', path: 'guides/percentage-rollouts', url: 'https://docs.test/guides/percentage-rollouts#how' },
      { title: 'Flags', path: 'concepts/flags', url: 'https://docs.test/concepts/flags' },
    ],
    events: new ReadableStream({
      start(controller) {
        for (const event of events) controller.enqueue(event)
        controller.close()
      },
    }),
  }
}

const read = (stream: ReadableStream<Uint8Array>) => new Response(stream).text()

describe('v2 UI message stream', () => {
  test('writes start, source-url parts, text parts, finish with the thread id, then [DONE]', async () => {
    const text = await read(
      uiMessageStream(
        answerOf([
          { type: 'text', delta: 'Rollouts ' },
          { type: 'text', delta: 'are sticky. [1]' },
        ]),
      ),
    )
    expect(text.split('\n\n').filter(Boolean)).toMatchInlineSnapshot(`
      [
        "data: {"type":"start","messageId":"msg_1","messageMetadata":{"threadId":"thr_1"}}",
        "data: {"type":"source-url","sourceId":"source-1","url":"https://docs.test/guides/percentage-rollouts#how","title":"Percentage rollouts"}",
        "data: {"type":"source-url","sourceId":"source-2","url":"https://docs.test/concepts/flags","title":"Flags"}",
        "data: {"type":"text-start","id":"text-msg_1"}",
        "data: {"type":"text-delta","id":"text-msg_1","delta":"Rollouts "}",
        "data: {"type":"text-delta","id":"text-msg_1","delta":"are sticky. [1]"}",
        "data: {"type":"text-end","id":"text-msg_1"}",
        "data: {"type":"finish","threadId":"thr_1","messageMetadata":{"threadId":"thr_1"}}",
        "data: [DONE]",
      ]
    `)
  })

  test('a model failure closes the text and sends an error part before finish', async () => {
    const text = await read(
      uiMessageStream(
        answerOf([
          { type: 'text', delta: 'Roll' },
          { type: 'error', message: 'cut off' },
        ]),
      ),
    )
    const types = text
      .split('\n\n')
      .filter((line) => line && line !== 'data: [DONE]')
      .map((line) => JSON.parse(line.slice(6)).type)
    expect(types).toEqual(['start', 'source-url', 'source-url', 'text-start', 'text-delta', 'text-end', 'error', 'finish'])
    expect(text).toContain('"errorText":"cut off"')
  })
})

describe('v1 data stream', () => {
  test('writes the v4 data stream lines, the thread id first (annotation) and last (finish)', async () => {
    const text = await read(
      dataStream(
        answerOf([
          { type: 'text', delta: 'Rollouts ' },
          { type: 'text', delta: 'are "sticky".' },
        ]),
      ),
    )
    expect(text.split('\n').filter(Boolean)).toMatchInlineSnapshot(`
      [
        "f:{"messageId":"msg_1"}",
        "8:[{"threadId":"thr_1"}]",
        "9:{"toolCallId":"search-msg_1","toolName":"search","args":{"query":"how do rollouts work"}}",
        "a:{"toolCallId":"search-msg_1","result":{"results":[{"path":"guides/percentage-rollouts","url":"https://docs.test/guides/percentage-rollouts#how","metadata":{"title":"Percentage rollouts"}},{"path":"concepts/flags","url":"https://docs.test/concepts/flags","metadata":{"title":"Flags"}}]}}",
        "h:{"sourceType":"url","id":"source-1","url":"https://docs.test/guides/percentage-rollouts#how","title":"Percentage rollouts"}",
        "h:{"sourceType":"url","id":"source-2","url":"https://docs.test/concepts/flags","title":"Flags"}",
        "0:"Rollouts "",
        "0:"are \\"sticky\\"."",
        "e:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"isContinued":false}",
        "d:{"finishReason":"stop","usage":{"promptTokens":0,"completionTokens":0},"threadId":"thr_1"}",
      ]
    `)
  })

  test('every line parses with the AI SDK v4 data stream parser; an error is a 3: part and finishReason error', async () => {
    const seen: string[] = []
    let text = ''
    let finishReason = ''
    await processDataStream({
      stream: dataStream(
        answerOf([
          { type: 'text', delta: 'Roll' },
          { type: 'error', message: 'cut off' },
        ]),
      ),
      onStartStepPart: (v) => void seen.push(`start:${v.messageId}`),
      onToolCallPart: (v) => void seen.push(`call:${v.toolName}`),
      onToolResultPart: (v) => void seen.push(`result:${(v.result as { results: unknown[] }).results.length}`),
      onSourcePart: (v) => void seen.push(`source:${v.url}`),
      onTextPart: (v) => void (text += v),
      onErrorPart: (v) => void seen.push(`error:${v}`),
      onMessageAnnotationsPart: (v) => void seen.push(`annotation:${JSON.stringify(v)}`),
      onFinishStepPart: () => void seen.push('finish-step'),
      onFinishMessagePart: (v) => void (finishReason = v.finishReason),
    })
    expect(text).toBe('Roll')
    expect(finishReason).toBe('error')
    expect(seen).toEqual([
      'start:msg_1',
      'annotation:[{"threadId":"thr_1"}]',
      'call:search',
      'result:2',
      'source:https://docs.test/guides/percentage-rollouts#how',
      'source:https://docs.test/concepts/flags',
      'error:cut off',
      'finish-step',
    ])
  })
})
