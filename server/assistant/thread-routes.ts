import { ListThreadsQuery, ThreadDetail, ThreadList } from '../../shared/assistant.ts'
import { DocentError } from '../../shared/errors.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'

/** Admin endpoints for the docs team: the readers' conversations with their feedback. */
export function threadRoutes(ctx: DocentContext): Route[] {
  const guard = adminGuard(ctx)
  return [
    route({
      method: 'get',
      path: '/v2/assistant/{projectId}/threads',
      tag: 'threads',
      summary: 'List assistant threads, most recently updated first',
      guard,
      query: ListThreadsQuery,
      responses: { 200: { description: 'a page of threads', schema: ThreadList } },
      handler: async (c, { auth, query }) => {
        const page = await ctx.store.listThreads(auth.project.id, { limit: query.limit, cursor: query.cursor })
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
      },
    }),
    route({
      method: 'get',
      path: '/v2/assistant/{projectId}/threads/{threadId}',
      tag: 'threads',
      summary: 'Get a thread with its messages, sources and feedback',
      guard,
      responses: { 200: { description: 'the thread', schema: ThreadDetail }, 404: { description: 'no such thread in this project' } },
      handler: async (c, { auth }) => {
        const thread = await ctx.store.getThread(auth.project.id, c.req.param('threadId')!)
        if (!thread) throw new DocentError('not_found', 'thread not found')
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
      },
    }),
  ]
}
