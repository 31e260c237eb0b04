import type { ModelMessage } from 'ai'

const MAX_OUTPUT_CHARS = 4_000
const MAX_MESSAGES = 400

/**
 * The conversation as stored on the job for follow-ups: large tool outputs (whole files, long listings) are replaced by
 * a note, since the model can read the file again, and the oldest messages go once there are too many.
 */
export function compactConversation(messages: ModelMessage[]): ModelMessage[] {
  const compacted = messages.map((message): ModelMessage => {
    if (message.role !== 'tool') return message
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== 'tool-result') return part
        const size = JSON.stringify(part.output).length
        if (size <= MAX_OUTPUT_CHARS) return part
        return {
          ...part,
          output: {
            type: 'text' as const,
            value: `[${size} characters of output left out of the stored conversation; call ${part.toolName} again if needed]`,
          },
        }
      }),
    }
  })
  if (compacted.length <= MAX_MESSAGES) return compacted
  // Cut at a user message so no tool result is left without its call.
  const tail = compacted.slice(-MAX_MESSAGES)
  const start = tail.findIndex((message) => message.role === 'user')
  return start >= 0 ? tail.slice(start) : tail
}
