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
  /** Until the model's first output, counted from the request: a server that never answers (no headers) included. */
  firstChunkMs: number
  chunkMs: number
  totalMs: number
}

// Generous: a local model on a CPU can take a while to start, but a stalled one must not hold a reader forever.
const DEFAULT_TIMEOUTS: ModelTimeouts = { firstChunkMs: 90_000, chunkMs: 30_000, totalMs: 300_000 }

/**
 * The most tokens the model may write for one answer (`max_tokens`). A docs answer is a few hundred; without a bound,
 * a model caught in a loop wrote 80 MB that were streamed, stored and searched for citations (the server stalled for
 * seconds). 4,096 is the most every chat model accepts (older OpenAI models refuse more).
 */
export const ANSWER_MAX_OUTPUT_TOKENS = 4096

/**
 * The most characters of one answer, for servers that ignore `max_tokens`: more than ANSWER_MAX_OUTPUT_TOKENS tokens
 * make, so it cuts only a model that overruns. Past it the model is stopped and the answer ends with LENGTH_NOTE.
 */
export const MAX_ANSWER_CHARS = 32_000

/** Ends an answer cut for its length (the model's output limit or MAX_ANSWER_CHARS): the reader and thread see why. */
export const LENGTH_NOTE = '\n\n*The answer was cut off here: it reached the length limit of an answer.*'

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

/**
 * Why an answer ended before the model finished it: the reader is `told` (an error part), and the stored answer ends
 * with the `note`, so the thread (the docs team, a follow-up) shows it was cut.
 */
interface Cut {
  told: string
  note: string
}

const cutOff = (why: string, advice: string): Cut => ({ told: `${why} ${advice}`, note: why })
const MODEL_FAILED = cutOff('The answer was cut off: the model failed.', 'Please try again.')
const MODEL_TOO_SLOW = cutOff('The answer was cut off: the model took too long.', 'Please try again.')
const STOPPING = cutOff('The answer was cut off: the server is restarting.', 'Please ask again.')
/** The question could not be stored: no text goes out, so there is no answer to store either. */
const QUESTION_NOT_STORED = cutOff('Your question could not be saved, so it was not answered.', 'Please try again in a moment.')

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
  const timeouts = request.timeouts ?? DEFAULT_TIMEOUTS
  // Ours, not the AI SDK's `firstChunkMs`: that one starts once the response headers are in, so a server that never
  // sent them held the reader until undici gave up (300 s) and the SDK's retry waited as long again.
  let cut: Cut | undefined
  const firstOutput = setTimeout(() => {
    cut ??= MODEL_TOO_SLOW
    abort.abort()
  }, timeouts.firstChunkMs)
  const result = streamText({
    model,
    instructions,
    messages: modelMessages(turns),
    maxOutputTokens: ANSWER_MAX_OUTPUT_TOKENS,
    abortSignal: abort.signal,
    timeout: { chunkMs: timeouts.chunkMs, totalMs: timeouts.totalMs },
    maxRetries: 1,
    onError: ({ error }) => ctx.log.warn('answer model failed', { project: project.id, thread: thread.id, error: String(error) }),
  })

  const messageId = ctx.ids('message')
  let text = ''
  // Once written, the answer's write: who ends the stream waits for it, whoever started it (the end, a stop).
  let answerStored: Promise<void> | undefined
  const saveAnswer = (): Promise<void> => {
    if (answerStored || !text) return answerStored ?? Promise.resolve()
    const content = cut ? `${text}\n\n*${cut.note}*` : text
    // The write joins a batch gathering under load (threads.ts), which logs a failure.
    answerStored = storeMessage(
      ctx,
      thread,
      { id: messageId, role: 'assistant', content, sources: retrieval.sources, createdAt: ctx.now() },
      { join: true },
    ).catch(() => {})
    return answerStored
  }
  const parts = result.stream[Symbol.asyncIterator]()
  // Set once nothing more is read from the model: it finished, failed, timed out or was cut off.
  let ended = false
  let questionDurable = false
  const endModel = (why?: Cut) => {
    cut ??= why
    ended = true
    clearTimeout(firstOutput)
    abort.abort()
  }
  // The server is stopping (a deploy, a restart): the model stops, what was written is stored now, before the store
  // closes, and the reader is told rather than cut off.
  const endForStop = () => {
    // An answer already complete (cut for its length) is told nothing more.
    if (!ended) cut ??= STOPPING
    abort.abort()
    void saveAnswer()
  }
  ctx.answering.add(endForStop)
  const events = new ReadableStream<AnswerEvent>({
    async pull(controller) {
      for (;;) {
        const next = ended
          ? ({ done: true } as const)
          : await parts.next().catch((error: unknown) => ({ done: false as const, value: { type: 'error' as const, error } }))
        if (next.done) {
          clearTimeout(firstOutput)
          ctx.answering.delete(endForStop)
          if (cut) controller.enqueue({ type: 'error', message: cut.told })
          // The stream ends once the answer is stored: a reader's next question, rating or reload may reach another
          // instance, which sees only what the store holds (this one's own reads wait in `openThread`).
          await saveAnswer()
          controller.close()
          return
        }
        const part = next.value
        // Cut off (stopping, timed out): the answer is what was written so far; the model's last parts are dropped.
        if (cut) {
          ended = true
          continue
        }
        if (part.type === 'text-delta' && part.text) {
          clearTimeout(firstOutput)
          if (!questionDurable) {
            if (!(await questionStored)) {
              // No text goes out for a question the thread does not hold (a full disk, the database gone): the reader
              // asks again, rather than reading an answer that a reload, a follow-up or the docs team never sees.
              endModel(QUESTION_NOT_STORED)
              continue
            }
            questionDurable = true
          }
          const room = MAX_ANSWER_CHARS - text.length
          if (part.text.length <= room) {
            text += part.text
            controller.enqueue({ type: 'text', delta: part.text })
            return
          }
          const kept = withoutHalfPair(part.text.slice(0, room))
          ctx.log.warn('answer cut at the length limit', { project: project.id, thread: thread.id, chars: MAX_ANSWER_CHARS })
          endModel()
          text += kept + LENGTH_NOTE
          controller.enqueue({ type: 'text', delta: kept + LENGTH_NOTE })
          return
        }
        if (part.type === 'reasoning-delta') clearTimeout(firstOutput)
        // The model reached ANSWER_MAX_OUTPUT_TOKENS.
        if (part.type === 'finish' && part.finishReason === 'length' && text) {
          endModel()
          text += LENGTH_NOTE
          controller.enqueue({ type: 'text', delta: LENGTH_NOTE })
          return
        }
        // One error part however many the model's stream holds (a garbled stream has one per bad chunk).
        if (part.type === 'error') endModel(MODEL_FAILED)
        // The AI SDK's timeouts end the stream with an abort part; our own aborts set `cut` first.
        if (part.type === 'abort') {
          ctx.log.warn('answer model timed out', { project: project.id, thread: thread.id })
          endModel(MODEL_TOO_SLOW)
        }
      }
    },
    cancel() {
      clearTimeout(firstOutput)
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

/** Without a lone high surrogate at the end (a cut through a character outside the BMP, an emoji). */
const withoutHalfPair = (text: string) => (/[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text)
