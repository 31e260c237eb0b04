import type { ChatTurn, Source } from '../../shared/assistant.ts'
import type { DocentContext } from '../context.ts'
import { newId } from './ids.ts'

export interface OpenThread {
  id: string
  /** Turns already stored in the thread, oldest first (empty for a new thread). */
  history: ChatTurn[]
}

/** How many stored turns a follow-up may bring back when the client sent only its last message. */
const HISTORY_TURNS = 20

/** Continues the project's thread `threadId`, or starts a new one (unknown, absent, or another project's id). */
export async function openThread(ctx: DocentContext, projectId: string, fp: string, threadId: string | null | undefined): Promise<OpenThread> {
  const existing = threadId ? await ctx.store.getThread(projectId, threadId) : null
  if (existing) {
    const messages = await ctx.store.listMessages(existing.id)
    return { id: existing.id, history: messages.slice(-HISTORY_TURNS).map((m) => ({ id: m.id, role: m.role, text: m.content })) }
  }
  const now = ctx.now()
  const id = newId('thr')
  await ctx.store.createThread({ id, projectId, fp, createdAt: now, updatedAt: now, messageCount: 0 })
  return { id, history: [] }
}

export interface Exchange {
  question: string
  askedAt: Date
  answerId: string
  answer: string
  sources: Source[]
}

/** Stores the question and the answer (or as much of it as was written); an empty answer leaves just the question. */
export async function saveExchange(ctx: DocentContext, threadId: string, exchange: Exchange): Promise<void> {
  const answeredAt = ctx.now()
  const question = { id: newId('msg'), threadId, role: 'user' as const, content: exchange.question, createdAt: exchange.askedAt }
  const answer = { id: exchange.answerId, threadId, role: 'assistant' as const, content: exchange.answer, sources: exchange.sources, createdAt: answeredAt }
  await ctx.store.appendMessages(threadId, exchange.answer ? [question, answer] : [question], answeredAt)
}
