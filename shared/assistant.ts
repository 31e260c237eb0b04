import { z } from 'zod'
import { SearchFilter } from './search.ts'

export const MAX_MESSAGES = 100
export const MAX_TOTAL_TEXT = 100_000
export const MAX_CURRENT_PATH = 200

export const ContextItem = z.object({
  type: z.enum(['code', 'textSelection']),
  value: z.string().max(10_000),
  path: z.string().max(500).optional(),
  elementId: z.string().max(200).optional(),
})
export type ContextItem = z.infer<typeof ContextItem>

const Role = z.enum(['user', 'assistant', 'system'])

/** Parts we read; unknown part types pass through and are ignored, however long their names (the body is bounded). */
const Part = z.looseObject({ type: z.string() })
const TextPart = z.object({ type: z.literal('text'), text: z.string() })

export const V1Message = z.looseObject({
  id: z.string().max(200).optional(),
  role: Role,
  content: z.string(),
  parts: z.array(Part).max(1000).optional(),
})

export const V2Message = z.looseObject({
  id: z.string().max(200).optional(),
  role: Role,
  parts: z.array(Part).max(1000),
  metadata: z.unknown().optional(),
  // Declared so the schema (and the OpenAPI document) says what the server refuses: a v2 message has no content.
  content: z.never({ error: 'v2 messages carry parts, not content' }).optional(),
})

const commonFields = {
  fp: z.string().min(1).max(256),
  threadId: z.string().max(200).nullable().optional(),
  retrievalPageSize: z.number().int().min(1).max(20).default(5),
  filter: SearchFilter.nullable().optional(),
  context: z.array(ContextItem).max(10).optional(),
  currentPath: z.string().max(MAX_CURRENT_PATH).optional(),
}

/** A message as the pipeline sees it, whichever protocol it came from. */
export interface ChatTurn {
  id?: string
  role: 'user' | 'assistant' | 'system'
  text: string
}

function textOfV2(message: z.infer<typeof V2Message>): string {
  return message.parts
    .flatMap((part) => {
      const text = TextPart.safeParse(part)
      return text.success ? [text.data.text] : []
    })
    .join('')
}

/**
 * A text's length in Unicode code points, as every other bound counts it (zod's `max` does): "😀" is one character,
 * though two UTF-16 units.
 */
function characters(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

function checkConversation(turns: ChatTurn[], ctx: z.RefinementCtx) {
  const units = turns.reduce((sum, turn) => sum + turn.text.length, 0)
  // A code point is one or two units: only a text over the bound in units needs counting.
  const total = units > MAX_TOTAL_TEXT ? turns.reduce((sum, turn) => sum + characters(turn.text), 0) : units
  if (total > MAX_TOTAL_TEXT) {
    ctx.addIssue({ code: 'custom', path: ['messages'], message: `total text must be at most ${MAX_TOTAL_TEXT} characters` })
  }
  const last = turns.at(-1)
  if (last && last.role !== 'user') {
    ctx.addIssue({ code: 'custom', path: ['messages'], message: 'the last message must have role "user"' })
  }
  if (last && last.role === 'user' && last.text.trim() === '') {
    ctx.addIssue({ code: 'custom', path: ['messages'], message: 'the last message has no text' })
  }
}

export const AssistantV1Body = z
  .object({ ...commonFields, messages: z.array(V1Message).min(1).max(MAX_MESSAGES) })
  .superRefine((body, ctx) => {
    // A message with nothing in it is no message. An assistant message whose answer was stopped before its first word
    // (AI SDK 4 keeps it, with the tool call that came first in its parts) is kept: its parts hold what it was.
    body.messages.forEach((message, index) => {
      if (message.content.length === 0 && (message.role === 'user' || !message.parts?.length)) {
        ctx.addIssue({ code: 'custom', path: ['messages', index, 'content'], message: 'a v1 message needs text in content' })
      }
    })
    checkConversation(
      body.messages.map((m) => ({ role: m.role, text: m.content })),
      ctx,
    )
  })
  .meta({ id: 'AssistantV1Body' })
export type AssistantV1Body = z.infer<typeof AssistantV1Body>

export const AssistantV2Body = z
  .object({ ...commonFields, messages: z.array(V2Message).min(1).max(MAX_MESSAGES) })
  .superRefine((body, ctx) => {
    // Parts of other types are ignored, but a text part is read: one whose text is no string is an error, not nothing.
    body.messages.forEach((message, index) => {
      message.parts.forEach((part, at) => {
        if (part.type === 'text' && typeof part.text !== 'string') {
          ctx.addIssue({
            code: 'custom',
            path: ['messages', index, 'parts', at, 'text'],
            message: 'a text part needs its text as a string',
          })
        }
      })
    })
    checkConversation(
      body.messages.map((m) => ({ role: m.role, text: textOfV2(m) })),
      ctx,
    )
  })
  .meta({ id: 'AssistantV2Body' })
export type AssistantV2Body = z.infer<typeof AssistantV2Body>

export function turnsOfV1(body: AssistantV1Body): ChatTurn[] {
  return body.messages.map((m) => ({ id: m.id, role: m.role, text: m.content }))
}

export function turnsOfV2(body: AssistantV2Body): ChatTurn[] {
  return body.messages.map((m) => ({ id: m.id, role: m.role, text: textOfV2(m) }))
}

export const FeedbackBody = z
  .object({
    threadId: z.string().min(1).max(200),
    messageId: z.string().min(1).max(200),
    rating: z.enum(['up', 'down']),
    comment: z.string().max(2000).optional(),
  })
  .meta({ id: 'FeedbackBody' })
export type FeedbackBody = z.infer<typeof FeedbackBody>

export const Source = z.object({ title: z.string(), path: z.string(), url: z.string() }).meta({ id: 'Source' })
export type Source = z.infer<typeof Source>

export const ThreadSummary = z.object({
  threadId: z.string(),
  fp: z.string(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  messageCount: z.number().int(),
})
export const ThreadList = z.object({ threads: z.array(ThreadSummary), nextCursor: z.string().nullable() }).meta({ id: 'ThreadList' })
export type ThreadList = z.infer<typeof ThreadList>

export const ThreadMessage = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  createdAt: z.iso.datetime(),
  sources: z.array(Source).optional(),
  feedback: z.object({ rating: z.enum(['up', 'down']), comment: z.string().optional() }).optional(),
})
export const ThreadDetail = z
  .object({ threadId: z.string(), createdAt: z.iso.datetime(), messages: z.array(ThreadMessage) })
  .meta({ id: 'ThreadDetail' })
export type ThreadDetail = z.infer<typeof ThreadDetail>

export const ListThreadsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
})
