import type { LanguageModel, ModelMessage } from 'ai'
import type { ChatTurn, Source } from '../../shared/assistant.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { type RetrievalRequest, retrieve } from './retrieval.ts'
import { aiSdk } from '../models/ai-sdk.ts'
import { systemPrompt } from './system-prompt.ts'
import { openThread, storeMessage } from './threads.ts'

/** What retrieval needs (the turns, filter, page, context items, origin), plus the thread and the model's limits. */
export interface AnswerRequest extends RetrievalRequest {
  fp: string
  threadId?: string | null
  /** How long a silent model may keep a reader waiting before the answer is cut off with an error part. */
  timeouts?: ModelTimeouts
}

export interface ModelTimeouts {
  firstChunkMs: number
  chunkMs: number
  totalMs: number
}

// Generous: a local model on a CPU can take a while to start, but a stalled one must not hold a reader forever.
const DEFAULT_TIMEOUTS: ModelTimeouts = { firstChunkMs: 90_000, chunkMs: 30_000, totalMs: 300_000 }

/** What the model writes, as the encoders see it: the same parts for v1 and v2. */
export type AnswerEvent = { type: 'text'; delta: string } | { type: 'error'; message: string }

export interface Answer {
  threadId: string
  /** Id of the assistant message: the client's message id, and what feedback refers to. */
  messageId: string
  /** What was searched: the question, made standalone when it was a follow-up. */
  query: string
  sources: Source[]
  /**
   * The answer as it is generated. The question is stored as the answer starts: no text is sent before it is, so a
   * reader who has seen any of the answer (and the thread id) finds the question in the thread even if the server
   * dies mid-answer. The answer is stored when it ends, fails or is cancelled (the client went away: the model is
   * stopped, and what was written is kept), off the stream's path: the stream does not wait for that write, and a
   * follow-up in this process waits for it before reading the thread.
   */
  events: ReadableStream<AnswerEvent>
  /** Whether the docs answered, once `events` has ended (analytics sets it; the encoders put it on `finish`). */
  resolution?: () => 'answered' | 'unanswered' | undefined
}

/** What a reader is told when their question could not be stored. */
const QUESTION_NOT_STORED = 'Your question could not be saved, so it was not answered. Please try again in a moment.'

/** What a reader is told when the server stops mid-answer. */
const STOPPING = 'The answer was cut off: the server is restarting. Please ask again.'

/** Follows DESIGN.md's flow: thread → search → streamText with the sources in the system prompt. */
export async function startAnswer(
  ctx: DocentContext,
  project: ProjectConfig,
  model: LanguageModel,
  request: AnswerRequest,
): Promise<Answer> {
  const askedAt = ctx.now()
  const thread = await openThread(ctx, project.id, request.threadId, request.fp, askedAt)
  // Clients normally resend the conversation; one that sends only its last message gets the stored turns back.
  const turns = request.turns.length === 1 && thread.history.length > 0 ? [...thread.history, ...request.turns] : request.turns
  const question = turns.at(-1)!.text
  const retrieval = await retrieve(ctx, project, { ...request, turns })
  // Once the docs are there (a request refused for them leaves no thread behind): written while the model starts,
  // awaited before the first text goes out.
  const questionStored = storeMessage(ctx, thread, { id: ctx.ids('message'), role: 'user', content: question, createdAt: askedAt }).then(
    () => true,
    () => false,
  )
  const instructions = systemPrompt({
    docsName: retrieval.docsName,
    sources: retrieval.blocks,
    standalone: retrieval.query !== question.trim() ? retrieval.query : undefined,
    currentPath: request.currentPath,
    context: request.context,
    unknownWords: retrieval.unknownWords,
  })
  const { streamText } = await aiSdk()
  const abort = new AbortController()
  const result = streamText({
    model,
    instructions,
    messages: modelMessages(turns),
    abortSignal: abort.signal,
    timeout: request.timeouts ?? DEFAULT_TIMEOUTS,
    maxRetries: 1,
    onError: ({ error }) => ctx.log.warn('answer model failed', { project: project.id, thread: thread.id, error: String(error) }),
  })

  const messageId = ctx.ids('message')
  let text = ''
  let saved = false
  const saveAnswer = async () => {
    if (saved || !text) return
    saved = true
    // Nobody waits for it: the stream ends at once, and the write joins a batch gathering under load (threads.ts),
    // which logs a failure.
    await storeMessage(
      ctx,
      thread,
      { id: messageId, role: 'assistant', content: text, sources: retrieval.sources, createdAt: ctx.now() },
      { join: true },
    ).catch(() => {})
  }
  const parts = result.stream[Symbol.asyncIterator]()
  let broken = false
  let questionDurable = false
  // The server is stopping (a deploy, a restart): the model stops, what was written is stored now, before the store
  // closes, and the reader is told rather than cut off.
  let stopping = false
  const endForStop = () => {
    stopping = true
    abort.abort()
    void saveAnswer()
  }
  ctx.answering.add(endForStop)
  const events = new ReadableStream<AnswerEvent>({
    async pull(controller) {
      for (;;) {
        // A stream that threw stays broken: report it once, then end.
        const next = broken
          ? ({ done: true } as const)
          : await parts.next().catch((error: unknown) => {
              broken = true
              return { done: false as const, value: { type: 'error' as const, error } }
            })
        if (next.done) {
          ctx.answering.delete(endForStop)
          if (stopping) controller.enqueue({ type: 'error', message: STOPPING })
          void saveAnswer()
          controller.close()
          return
        }
        const part = next.value
        // Stopping, the answer is what was stored: nothing more goes out.
        if (stopping && part.type === 'text-delta') continue
        if (part.type === 'text-delta' && part.text) {
          if (!questionDurable) {
            if (!(await questionStored)) {
              // No text goes out for a question the thread does not hold (a full disk, the database gone): the reader
              // asks again, rather than reading an answer that a reload, a follow-up or the docs team never sees.
              broken = true
              abort.abort()
              controller.enqueue({ type: 'error', message: QUESTION_NOT_STORED })
              continue
            }
            questionDurable = true
          }
          text += part.text
          controller.enqueue({ type: 'text', delta: part.text })
          return
        }
        if (part.type === 'error') {
          controller.enqueue({ type: 'error', message: 'The answer was cut off: the model failed. Please try again.' })
          return
        }
        // Timeouts end the stream with an abort part; our own abort (the reader left) has nobody to tell.
        if (part.type === 'abort' && !abort.signal.aborted) {
          ctx.log.warn('answer model timed out', { project: project.id, thread: thread.id })
          controller.enqueue({ type: 'error', message: 'The answer was cut off: the model took too long. Please try again.' })
          return
        }
      }
    },
    cancel() {
      ctx.answering.delete(endForStop)
      // The reader went away (closed the page, lost the connection) before the answer ended.
      ctx.log.info('answer stream cut by the reader', { project: project.id, thread: thread.id, answerChars: text.length })
      abort.abort()
      void saveAnswer()
    },
  })
  return { threadId: thread.id, messageId, query: retrieval.query, sources: retrieval.sources, events }
}

/** The conversation as model messages; client-sent `system` turns are dropped (readers do not get to set rules). */
function modelMessages(turns: ChatTurn[]): ModelMessage[] {
  return turns.flatMap((turn): ModelMessage[] => {
    if (turn.role === 'system' || !turn.text.trim()) return []
    return [{ role: turn.role, content: turn.text }]
  })
}
