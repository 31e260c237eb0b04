import { Hono } from 'hono'
import { ListJobsQuery, PromptBody } from '../../shared/agent.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard, agentWriteGuard } from '../http/guards.ts'
import { readJson, readQuery } from '../http/validate.ts'
import { archiveJob, createJob, getJobOr404, sendFollowUp } from './jobs.ts'
import { jobView } from './job-view.ts'

/** `/v2/agent/{projectId}/...`: jobs, follow-ups, archive, events (admin key). */
export function agentRoutes(ctx: DocentContext): Hono {
  const app = new Hono()
  const base = '/v2/agent/:projectId'

  app.post(`${base}/job`, agentWriteGuard(ctx), async (c) => {
    const { prompt } = await readJson(c, PromptBody)
    return c.json(jobView(await createJob(ctx, c.get('auth').project, prompt)))
  })

  app.post(`${base}/job/:id/message`, agentWriteGuard(ctx), async (c) => {
    const { prompt } = await readJson(c, PromptBody)
    return c.json(jobView(await sendFollowUp(ctx, c.get('auth').project, c.req.param('id'), prompt)))
  })

  app.get(`${base}/job/:id`, adminGuard(ctx), async (c) => {
    return c.json(jobView(await getJobOr404(ctx, c.get('auth').project, c.req.param('id'))))
  })

  app.get(`${base}/jobs`, adminGuard(ctx), async (c) => {
    const { limit, cursor } = readQuery(c, ListJobsQuery)
    const page = await ctx.store.listJobs(c.get('auth').project.id, { limit, cursor })
    return c.json({ jobs: page.items.map(jobView), nextCursor: page.nextCursor })
  })

  app.post(`${base}/job/:id/archive`, adminGuard(ctx), async (c) => {
    return c.json(jobView(await archiveJob(ctx, c.get('auth').project, c.req.param('id'))))
  })

  app.get(`${base}/job/:id/events`, adminGuard(ctx), async (c) => {
    const job = await getJobOr404(ctx, c.get('auth').project, c.req.param('id'))
    return c.json({ events: await ctx.store.listJobEvents(job.id) })
  })

  return app
}
