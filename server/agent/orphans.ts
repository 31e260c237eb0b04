import type { DocentContext } from '../context.ts'
import { jobEvents } from './events.ts'

const PAGE = 100
const MAX_JOBS_PER_PROJECT = 500

export const LOST_RUN_ERROR = 'the run was lost (nothing queued or running for this job); send a follow-up to try again'

/**
 * Fails active jobs that have no queued or running run and were not touched for `graceMs`: a job must never stay
 * active forever, even if the process died between storing a job and queuing its run. Looks at the newest jobs only.
 */
export async function failOrphanedJobs(ctx: DocentContext, graceMs: number): Promise<number> {
  let failed = 0
  const cutoff = ctx.now().getTime() - graceMs
  for (const project of ctx.config.projects) {
    if (!project.agent) continue
    let cursor: string | undefined
    for (let seen = 0; seen < MAX_JOBS_PER_PROJECT; seen += PAGE) {
      const page = await ctx.store.listJobs(project.id, { limit: PAGE, cursor })
      for (const job of page.items) {
        if (job.status !== 'active' || job.updatedAt.getTime() > cutoff) continue
        if ((await ctx.store.countOpenRuns(job.id)) > 0) continue
        const updated = await ctx.store.updateJob(
          job.id,
          { status: 'failed', error: LOST_RUN_ERROR, updatedAt: ctx.now() },
          {
            ifStatusIn: ['active'],
          },
        )
        if (!updated) continue
        failed++
        await jobEvents(ctx.store, job.id, ctx.now).add('run.failed', LOST_RUN_ERROR)
      }
      if (!page.nextCursor) break
      cursor = page.nextCursor
    }
  }
  return failed
}
