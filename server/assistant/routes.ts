import { AssistantV1Body, AssistantV2Body, type ChatTurn, FeedbackBody, turnsOfV1, turnsOfV2 } from '../../shared/assistant.ts'
import { UiMessageChunk } from '../../shared/assistant-stream.ts'
import { DocentError } from '../../shared/errors.ts'
import type { DocentContext } from '../context.ts'
import { assistantGuard } from '../http/guards.ts'
import { type AppContext, type Route, route } from '../http/route.ts'
import { recordedAnswer } from '../analytics/answer-hook.ts'
import { callerOf } from '../http/caller.ts'
import { modelIdOf } from '../context.ts'
import { serverBase } from '../llms/links.ts'
import { DATA_STREAM_HEADERS, dataStream } from './data-stream.ts'
import { type Answer, startAnswer } from './pipeline.ts'
import { threadSettled } from './threads.ts'
import { UI_MESSAGE_STREAM_HEADERS, uiMessageStream } from './ui-message-stream.ts'

const THREAD_HEADER = { 'X-Thread-Id': { description: 'the thread this answer belongs to; send it back as threadId' } }

/** The reader-facing assistant endpoints: v1 and v2 share everything but message parsing and the stream encoder. */
export function assistantRoutes(ctx: DocentContext): Route[] {
  const messageGuard = assistantGuard(ctx, { quota: 'answer' })

  const modelId = modelIdOf(ctx.models.answer)
  const answer = async (c: AppContext, body: AssistantV1Body | AssistantV2Body, turns: ChatTurn[]): Promise<Answer> => {
    const startedAt = performance.now()
    const askedAt = ctx.now()
    const project = c.get('auth').project
    // Links (sources, the page the reader was on) from configuration or a trusted host, never from the Host header.
    const origin = serverBase(ctx.config, c.req.url)
    const result = await startAnswer(ctx, project, ctx.models.answer, {
      fp: body.fp,
      threadId: body.threadId,
      turns,
      pageSize: body.retrievalPageSize,
      filter: body.filter,
      currentPath: body.currentPath,
      context: body.context,
      origin,
    })
    const question = turns.at(-1)!.text
    const caller = callerOf(c)
    return recordedAnswer(ctx, result, {
      project,
      question,
      fp: body.fp,
      currentPath: body.currentPath,
      caller,
      origin,
      model: modelId,
      askedAt,
      startedAt,
    })
  }

  return [
    route({
      method: 'post',
      path: '/discovery/v1/assistant/{domain}/message',
      tag: 'assistant',
      summary: 'Answer a question (AI SDK v4 data stream; deprecated)',
      description: 'For AI SDK 4 clients: `useChat({ streamProtocol: "data", sendExtraMessageFields: true })`.',
      guard: messageGuard,
      body: AssistantV1Body,
      responses: {
        200: {
          description: 'the answer as AI SDK v4 data stream lines (`f:`, `9:`, `a:`, `h:`, `0:`..., `8:`, `e:`, `d:`)',
          content: { type: 'text/plain', description: 'one `CODE:JSON` line per part' },
          headers: THREAD_HEADER,
        },
      },
      handler: async (c, { body }) => {
        const result = await answer(c, body, turnsOfV1(body))
        return new Response(dataStream(result), { headers: { ...DATA_STREAM_HEADERS, 'x-thread-id': result.threadId } })
      },
    }),
    route({
      method: 'post',
      path: '/discovery/v2/assistant/{domain}/message',
      tag: 'assistant',
      summary: 'Answer a question (AI SDK UI message stream)',
      description: 'For AI SDK 5 and later: `Chat`/`useChat` with `DefaultChatTransport`.',
      guard: messageGuard,
      body: AssistantV2Body,
      responses: {
        200: {
          description: 'the answer as server-sent events, one UiMessageChunk each, ending with `data: [DONE]`',
          content: { type: 'text/event-stream', schema: UiMessageChunk, description: 'one `data: <UiMessageChunk JSON>` event per chunk' },
          headers: THREAD_HEADER,
        },
      },
      handler: async (c, { body }) => {
        const result = await answer(c, body, turnsOfV2(body))
        return new Response(uiMessageStream(result), { headers: { ...UI_MESSAGE_STREAM_HEADERS, 'x-thread-id': result.threadId } })
      },
    }),
    route({
      method: 'post',
      path: '/discovery/v1/assistant/{domain}/feedback',
      tag: 'assistant',
      summary: 'Rate an answer',
      guard: assistantGuard(ctx, { quota: 'feedback' }),
      body: FeedbackBody,
      responses: {
        204: { description: 'recorded (a second rating replaces the first)' },
        404: { description: 'no such thread or message' },
      },
      handler: async (c, { auth, body }) => {
        // A rating sent the moment an answer ended finds that answer.
        await threadSettled(ctx, body.threadId)
        const thread = await ctx.store.getThread(auth.project.id, body.threadId)
        if (!thread) throw new DocentError('not_found', 'threadId: no such thread')
        const stored = await ctx.store.putFeedback({ ...body, createdAt: ctx.now() })
        if (!stored) throw new DocentError('not_found', 'messageId: no such message in this thread')
        if (body.rating === 'down') ctx.analytics.recorder.ratedDown(auth.project.id, body.messageId, ctx.now())
        return c.body(null, 204)
      },
    }),
  ]
}
