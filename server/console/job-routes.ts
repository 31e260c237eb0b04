import { ListJobsQuery } from '../../shared/agent.ts'
import { ConsoleJobList } from '../../shared/console.ts'
import { jobView } from '../agent/job-view.ts'
import type { DocentContext } from '../context.ts'
import { adminGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'

/**
 * The Agent screen's list: each job with the prompt it was made with and its follow-ups, which the AgentJob of the
 * contract does not carry (a job is what the agent did; people find a job by what they asked).
 */
export function consoleJobRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'get',
      path: '/console/api/{projectId}/jobs',
      tag: 'console',
      summary: 'Jobs, newest first, with their first prompt and number of follow-ups',
      guard: adminGuard(ctx),
      query: ListJobsQuery,
      responses: { 200: { description: 'a page of jobs', schema: ConsoleJobList } },
      handler: async (c, { auth, query }) => {
        const page = await ctx.store.listJobs(auth.project.id, { limit: query.limit, cursor: query.cursor })
        const jobs = await Promise.all(
          page.items.map(async (job) => {
            const runs = await ctx.store.listRuns(job.id)
            return {
              ...jobView(job),
              prompt: runs[0]?.prompt ?? null,
              followUps: Math.max(0, runs.length - 1),
              updatedAt: job.updatedAt.toISOString(),
            }
          }),
        )
        return c.json({ jobs, nextCursor: page.nextCursor } satisfies ConsoleJobList)
      },
    }),
  ]
}
