import { Hono } from 'hono'
import { ListThreadsQuery, type ThreadDetail, type ThreadList } from '../../shared/assistant.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { adminGuard } from '../http/guards.ts'
import { readQuery } from '../http/validate.ts'

/** Admin endpoints for the docs team: the readers' conversations with their feedback. */
export function threadRoutes(ctx: DocentContext): Hono {
  const app = new Hono()

  app.get('/v2/assistant/:projectId/threads', adminGuard(ctx), async (c) => {
    const query = readQuery(c, ListThreadsQuery)
    const page = await ctx.store.listThreads(c.get('auth').project.id, { limit: query.limit, cursor: query.cursor })
    const body: ThreadList = {
      threads: page.items.map((t) => ({
        threadId: t.id,
        fp: t.fp,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
        messageCount: t.messageCount,
      })),
      nextCursor: page.nextCursor,
    }
    return c.json(body)
  })

  app.get('/v2/assistant/:projectId/threads/:threadId', adminGuard(ctx), async (c) => {
    const thread = await ctx.store.getThread(c.get('auth').project.id, c.req.param('threadId'))
    if (!thread) throw new ApiError(404, 'thread not found')
    const messages = await ctx.store.listMessages(thread.id)
    const body: ThreadDetail = {
      threadId: thread.id,
      createdAt: thread.createdAt.toISOString(),
      messages: messages.map((m) => ({
        id: m.id,
        role: m.role,
        content: m.content,
        createdAt: m.createdAt.toISOString(),
        ...(m.sources ? { sources: m.sources } : {}),
        ...(m.feedback ? { feedback: m.feedback } : {}),
      })),
    }
    return c.json(body)
  })
  return app
}
