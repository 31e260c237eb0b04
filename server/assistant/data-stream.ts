import type { Answer } from './pipeline.ts'

export const DATA_STREAM_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'x-vercel-ai-data-stream': 'v1',
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 }

/**
 * v1: the AI SDK v4 data stream protocol (`TYPE:JSON\n` lines). `ai` 5 and later no longer write it, so this is ours.
 * Lines: `f` step start with the message id; `8` the thread id as a message annotation; the sources as a `search` tool
 * call (`9`) and its result (`a`) and as `h` source parts; `0` text deltas; `3` an error; a second `8` with the thread id
 * and whether the docs answered (`resolution`); `e` step finish; `d` message finish, with the thread id again.
 *
 * The first annotation comes before any text: AI SDK 4's client throws at an error part (`3`) and reads nothing after
 * it, so a reader whose answer failed must already have the thread id, or its next question would start a new thread.
 * The resolution is known only at the end; v4 clients collect every annotation of a message.
 */
export function dataStream(answer: Answer): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const line = (code: string, value: unknown) => encoder.encode(`${code}:${JSON.stringify(value)}\n`)
  const reader = answer.events.getReader()
  const toolCallId = `search-${answer.messageId}`
  let failed = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(line('f', { messageId: answer.messageId }))
      controller.enqueue(line('8', [{ threadId: answer.threadId }]))
      controller.enqueue(line('9', { toolCallId, toolName: 'search', args: { query: answer.query } }))
      const results = answer.sources.map((source) => ({ path: source.path, url: source.url, metadata: { title: source.title } }))
      controller.enqueue(line('a', { toolCallId, result: { results } }))
      answer.sources.forEach((source, index) =>
        controller.enqueue(line('h', { sourceType: 'url', id: `source-${index + 1}`, url: source.url, title: source.title })),
      )
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        const finishReason = failed ? 'error' : 'stop'
        const resolution = answer.resolution?.()
        if (resolution) controller.enqueue(line('8', [{ threadId: answer.threadId, resolution }]))
        controller.enqueue(line('e', { finishReason, usage: NO_USAGE, isContinued: false }))
        controller.enqueue(line('d', { finishReason, usage: NO_USAGE, threadId: answer.threadId }))
        controller.close()
        return
      }
      if (value.type === 'text') controller.enqueue(line('0', value.delta))
      else {
        failed = true
        controller.enqueue(line('3', value.message))
      }
    },
    cancel: (reason) => reader.cancel(reason),
  })
}
