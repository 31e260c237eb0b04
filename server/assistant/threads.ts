import type { ChatTurn, Source } from '../../shared/assistant.ts'
import type { DocentContext } from '../context.ts'
import { newId } from '../ids.ts'

export interface OpenThread {
  id: string
  /** False for a new thread: it is created in the store with its first exchange. */
  stored: boolean
  /** Turns already stored in the thread, oldest first (empty for a new thread). */
  history: ChatTurn[]
}

/** How many stored turns a follow-up may bring back when the client sent only its last message. */
const HISTORY_TURNS = 20

/** Continues the project's thread `threadId`, or picks an id for a new one (unknown, absent, or another project's id). */
export async function openThread(ctx: DocentContext, projectId: string, threadId: string | null | undefined): Promise<OpenThread> {
  const existing = threadId ? await ctx.store.getThread(projectId, threadId) : null
  if (!existing) return { id: newId('thr'), stored: false, history: [] }
  const messages = await ctx.store.listMessages(existing.id)
  return {
    id: existing.id,
    stored: true,
    history: messages.slice(-HISTORY_TURNS).map((m) => ({ id: m.id, role: m.role, text: m.content })),
  }
}

export interface Exchange {
  projectId: string
  fp: string
  question: string
  askedAt: Date
  answerId: string
  answer: string
  sources: Source[]
}

/**
 * Stores the question and the answer (or as much of it as was written); an empty answer leaves just the question.
 * A new thread is created here, so a request that fails before answering leaves no empty thread behind.
 */
export async function saveExchange(ctx: DocentContext, thread: OpenThread, exchange: Exchange): Promise<void> {
  const answeredAt = ctx.now()
  if (!thread.stored) {
    await ctx.store.createThread({
      id: thread.id,
      projectId: exchange.projectId,
      fp: exchange.fp,
      createdAt: exchange.askedAt,
      updatedAt: exchange.askedAt,
      messageCount: 0,
    })
    thread.stored = true
  }
  const question = { id: newId('msg'), threadId: thread.id, role: 'user' as const, content: exchange.question, createdAt: exchange.askedAt }
  const answer = {
    id: exchange.answerId,
    threadId: thread.id,
    role: 'assistant' as const,
    content: exchange.answer,
    sources: exchange.sources,
    createdAt: answeredAt,
  }
  await ctx.store.appendMessages(thread.id, exchange.answer ? [question, answer] : [question], answeredAt)
}
