import type { Answer } from './pipeline.ts'

/** The headers of the AI SDK UI message stream (`UI_MESSAGE_STREAM_HEADERS` without the hop-by-hop `connection`). */
export const UI_MESSAGE_STREAM_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
}

/**
 * v2: the AI SDK UI message stream as server-sent events, in the order API.md fixes: `start`, one `source-url` per
 * source, `text-start`/`text-delta`/`text-end`, `error` if the model failed, `finish`, `[DONE]`.
 *
 * Written by hand rather than with `createUIMessageStream` so that nothing else appears: no `finishReason` on `finish`
 * (ai 5.0.0–5.0.91 reject it) and no step chunks. The top-level `threadId` on `finish` is the contract's; ai 5.0.0–5.0.216,
 * 6.0.0–6.0.230 and 7.0.0–7.0.31 reject it, so the id is also in `messageMetadata`, which every version accepts.
 */
export function uiMessageStream(answer: Answer): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  const sse = (chunk: unknown) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`)
  const textId = `text-${answer.messageId}`
  const metadata = { threadId: answer.threadId }
  const reader = answer.events.getReader()
  let textOpen = false
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(sse({ type: 'start', messageId: answer.messageId, messageMetadata: metadata }))
      answer.sources.forEach((source, index) =>
        controller.enqueue(sse({ type: 'source-url', sourceId: `source-${index + 1}`, url: source.url, title: source.title })),
      )
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        if (textOpen) controller.enqueue(sse({ type: 'text-end', id: textId }))
        const resolution = answer.resolution?.()
        controller.enqueue(
          sse({ type: 'finish', threadId: answer.threadId, messageMetadata: resolution ? { ...metadata, resolution } : metadata }),
        )
        controller.enqueue(encoder.encode('data: [DONE]\n\n'))
        controller.close()
        return
      }
      if (value.type === 'text') {
        if (!textOpen) controller.enqueue(sse({ type: 'text-start', id: textId }))
        textOpen = true
        controller.enqueue(sse({ type: 'text-delta', id: textId, delta: value.delta }))
      } else {
        if (textOpen) controller.enqueue(sse({ type: 'text-end', id: textId }))
        textOpen = false
        controller.enqueue(sse({ type: 'error', errorText: value.message }))
      }
    },
    cancel: (reason) => reader.cancel(reason),
  })
}
