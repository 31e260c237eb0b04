import type { Answer } from './pipeline.ts'

export const DATA_STREAM_HEADERS = {
  'content-type': 'text/plain; charset=utf-8',
  'x-vercel-ai-data-stream': 'v1',
}

const NO_USAGE = { promptTokens: 0, completionTokens: 0 }

/**
 * v1: the AI SDK v4 data stream protocol (`TYPE:JSON\n` lines). `ai` 5 and later no longer write it, so this is ours.
 * Lines, as API.md lists them: `f` step start with the message id; the sources as a `search` tool call (`9`) and its
 * result (`a`) and as `h` source parts; `0` text deltas; `3` an error; `8` the thread id (and whether the docs answered) as a message annotation;
 * `e` step finish; `d` message finish.
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
        controller.enqueue(line('8', [resolution ? { threadId: answer.threadId, resolution } : { threadId: answer.threadId }]))
        controller.enqueue(line('e', { finishReason, usage: NO_USAGE, isContinued: false }))
        controller.enqueue(line('d', { finishReason, usage: NO_USAGE }))
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
