import { z } from 'zod'

// The chunks of the v2 answer stream, each sent as one server-sent event `data: <json>` (the stream ends with
// `data: [DONE]`). These are the AI SDK UI message stream's own chunk shapes, limited to those Docent sends, in order:
// start, source-url..., text-start, text-delta..., text-end, error (only when the model failed), finish.

const Metadata = z.object({
  threadId: z.string(),
  resolution: z.enum(['answered', 'unanswered']).optional().describe('on finish: whether the docs covered the question'),
})

export const UiMessageChunk = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('start'), messageId: z.string(), messageMetadata: Metadata }),
    z.object({ type: z.literal('source-url'), sourceId: z.string(), url: z.string(), title: z.string() }),
    z.object({ type: z.literal('text-start'), id: z.string() }),
    z.object({ type: z.literal('text-delta'), id: z.string(), delta: z.string() }),
    z.object({ type: z.literal('text-end'), id: z.string() }),
    z.object({ type: z.literal('error'), errorText: z.string() }),
    z.object({
      type: z.literal('finish'),
      threadId: z.string().describe('ai 5.0.0-5.0.216, 6.0.0-6.0.230 and 7.0.0-7.0.31 reject this field: read messageMetadata'),
      messageMetadata: Metadata,
    }),
  ])
  .meta({ id: 'UiMessageChunk' })
export type UiMessageChunk = z.infer<typeof UiMessageChunk>
