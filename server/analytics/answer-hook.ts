import type { Resolution } from '../../shared/analytics.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { Answer, AnswerEvent } from '../assistant/pipeline.ts'
import type { Caller } from '../../shared/analytics.ts'
import { resolutionOf } from './decline.ts'
import { pageUrlOf } from './normalize.ts'

export interface AnswerContext {
  project: ProjectConfig
  /** The reader's question (the last user message). */
  question: string
  fp: string
  currentPath?: string
  caller: Caller
  /** The request's origin: the base of page URLs when the project has no site URL and no public URL is set. */
  origin: string
  model: string
  askedAt: Date
  /** `performance.now()` when the request arrived, for time to first token and total time. */
  startedAt: number
}

/**
 * The answer as the routes send it, watched on its way out: the text is collected as it streams, and when the
 * answer ends (or the reader leaves) its resolution is settled for the encoders' `finish` and the turn is queued
 * for recording. Nothing here waits on the store: the stream passes through unchanged and unslowed.
 */
export function recordedAnswer(ctx: DocentContext, answer: Answer, about: AnswerContext): Answer {
  const reader = answer.events.getReader()
  let text = ''
  let failed = false
  let firstTokenMs: number | null = null
  let resolution: Resolution | undefined
  ctx.analytics.recorder.answerStarted()
  // `cut`: the answer ended with an error part (the model failed or took too long, the server stopped): not answered,
  // whatever it said so far. `left`: the reader went away; what they read may have answered them.
  const end = (ending: 'complete' | 'cut' | 'left') => {
    if (resolution) return
    ctx.answering.delete(recordOnStop)
    ctx.analytics.recorder.answerEnded()
    const complete = ending === 'complete'
    resolution = ending === 'cut' ? 'unanswered' : resolutionOf(text, answer.sources, complete)
    const base = about.project.siteUrl ?? ctx.config.publicUrl ?? about.origin
    ctx.analytics.recorder.turn({
      projectId: about.project.id,
      threadId: answer.threadId,
      messageId: answer.messageId,
      question: about.question,
      searchQuery: answer.query,
      response: text,
      sources: answer.sources,
      resolution,
      complete,
      pagePath: about.currentPath ?? null,
      pageUrl: pageUrlOf(base, about.currentPath),
      caller: about.caller,
      fp: about.fp,
      model: about.model,
      askedAt: about.askedAt,
      firstTokenMs,
      totalMs: Math.round(performance.now() - about.startedAt),
    })
  }
  // Stopping ends the answers (`answering`) before analytics writes what waits and the store closes: the row of an
  // answer cut off then is queued now, not when its reader next reads (after the store closed: the row was lost).
  const recordOnStop = () => end('cut')
  ctx.answering.add(recordOnStop)
  const events = new ReadableStream<AnswerEvent>({
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) {
        end(failed ? 'cut' : 'complete')
        controller.close()
        return
      }
      if (value.type === 'text') {
        firstTokenMs ??= Math.round(performance.now() - about.startedAt)
        text += value.delta
      } else failed = true
      controller.enqueue(value)
    },
    async cancel(reason) {
      await reader.cancel(reason)
      end('left')
    },
  })
  return { ...answer, events, resolution: () => resolution }
}
