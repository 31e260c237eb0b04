import { type Context, Hono } from 'hono'
import { AssistantV1Body, AssistantV2Body, type ChatTurn, FeedbackBody, turnsOfV1, turnsOfV2 } from '../../shared/assistant.ts'
import type { DocentContext } from '../context.ts'
import { projectCors } from '../http/cors.ts'
import { ApiError } from '../http/errors.ts'
import { assistantGuard } from '../http/guards.ts'
import { readJson } from '../http/validate.ts'
import { answerModel } from '../models/registry.ts'
import { DATA_STREAM_HEADERS, dataStream } from './data-stream.ts'
import { type Answer, startAnswer } from './pipeline.ts'
import { UI_MESSAGE_STREAM_HEADERS, uiMessageStream } from './ui-message-stream.ts'

/** The reader-facing assistant endpoints: v1 and v2 share everything but message parsing and the stream encoder. */
export function assistantRoutes(ctx: DocentContext): Hono {
  const app = new Hono()
  const model = answerModel(ctx.config, { fetch: ctx.fetch, env: ctx.env })
  const messageGuard = assistantGuard(ctx, { countKeyAndIp: true })
  const cors = projectCors(ctx.projects)
  const preflight = (c: Context) => c.body(null, 204)

  const answer = async (c: Context, body: AssistantV1Body | AssistantV2Body, turns: ChatTurn[]): Promise<Answer> =>
    startAnswer(ctx, c.get('auth').project, model, {
      fp: body.fp,
      threadId: body.threadId,
      turns,
      pageSize: body.retrievalPageSize,
      filter: body.filter,
      currentPath: body.currentPath,
      context: body.context,
      origin: new URL(c.req.url).origin,
    })

  app.options('/discovery/v1/assistant/:domain/message', cors, preflight)
  app.post('/discovery/v1/assistant/:domain/message', messageGuard, async (c) => {
    const body = await readJson(c, AssistantV1Body)
    const result = await answer(c, body, turnsOfV1(body))
    return new Response(dataStream(result), { headers: { ...DATA_STREAM_HEADERS, 'x-thread-id': result.threadId } })
  })

  app.options('/discovery/v2/assistant/:domain/message', cors, preflight)
  app.post('/discovery/v2/assistant/:domain/message', messageGuard, async (c) => {
    const body = await readJson(c, AssistantV2Body)
    const result = await answer(c, body, turnsOfV2(body))
    return new Response(uiMessageStream(result), { headers: { ...UI_MESSAGE_STREAM_HEADERS, 'x-thread-id': result.threadId } })
  })

  app.options('/discovery/v1/assistant/:domain/feedback', cors, preflight)
  app.post('/discovery/v1/assistant/:domain/feedback', assistantGuard(ctx, { countKeyAndIp: false }), async (c) => {
    const body = await readJson(c, FeedbackBody)
    const { project } = c.get('auth')
    const thread = await ctx.store.getThread(project.id, body.threadId)
    if (!thread) throw new ApiError(404, 'threadId: no such thread')
    const stored = await ctx.store.putFeedback({ ...body, createdAt: ctx.now() })
    if (!stored) throw new ApiError(404, 'messageId: no such message in this thread')
    return c.body(null, 204)
  })
  return app
}
