import { git } from '../git/isomorphic.ts'
import { DocentError } from '../../shared/errors.ts'
import type { DocentContext } from '../context.ts'
import { diffCommits } from '../git/tree-diff.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { reviewMergeState } from './hosts/local-merge.ts'
import { readLocalPull } from './hosts/local-pulls.ts'
import { escapeHtml, noFraming, renderReviewPage, type ReviewView, unreadableReview } from './hosts/review-page.ts'
import { isJobIdShape } from '../shapes.ts'
import { reviewAccess } from './reviewer.ts'

/**
 * `/review/{jobId}`: the local git host's pull request page, the unified diff of the job's branch against the point
 * where it left its base. Job ids are unguessable, as is the PR link the job API hands out.
 */
export function reviewRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'get',
      path: '/review/{jobId}',
      tag: 'agent',
      summary: "The local git host's pull request page: the job branch's diff against its base (HTML)",
      guard: publicGuard,
      params: { jobId: 'the job id (unguessable, as the prLink the job API hands out)' },
      responses: {
        200: { description: 'the review page (or a notice that git cannot read this branch)', content: { type: 'text/html' } },
        404: { description: 'no such job, or it has not pushed a branch yet (an HTML page for browsers)' },
      },
      handler: async (c) => {
        const jobId = c.req.param('jobId')!
        const view = isJobIdShape(jobId) ? await findReview(ctx, c, jobId).catch((error) => unreadableReview(jobId, error)) : null
        // The page shows repository and model text: no script may run, whatever slips through. It holds a Merge button:
        // no other site may frame it and have a signed-in reviewer click it unseen (clickjacking).
        c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
        noFraming(c)
        c.header('X-Content-Type-Options', 'nosniff')
        if (!view) {
          // A browser gets a readable page; API clients and scripts the JSON error every other endpoint gives.
          if ((c.req.header('accept') ?? '').includes('text/html')) return c.html(notFound(jobId), 404)
          throw new DocentError('not_found', 'no review for this job: it does not exist or has not pushed a branch yet')
        }
        return c.html(renderReviewPage(view))
      },
    }),
  ]
}

async function findReview(ctx: DocentContext, c: AppContext, jobId: string): Promise<ReviewView | null> {
  for (const project of ctx.config.projects) {
    const agent = project.agent
    if (agent?.host.kind !== 'local' || !agent.repository.startsWith('local:')) continue
    const job = await ctx.store.getJob(project.id, jobId)
    if (!job) continue
    const repo = await ctx.agentGit.localRepositories.open(agent.repository.slice('local:'.length))
    const pull = await readLocalPull(repo, jobId)
    const branch = pull?.branch ?? job.branch
    const base = pull?.base ?? job.source.ref ?? agent.ref
    if (!branch) return null
    const resolve = (ref: string) => git.resolveRef({ ...repo, ref: `refs/heads/${ref}` }).catch(() => null)
    const [head, baseHead] = await Promise.all([resolve(branch), resolve(base)])
    if (!head) return null
    const [forkPoint] = baseHead ? await git.findMergeBase({ ...repo, oids: [head, baseHead] }) : []
    const files = forkPoint ? await diffCommits(repo, forkPoint as string, head) : []
    return {
      jobId,
      title: pull?.title ?? `Docent job ${jobId}`,
      body: pull?.body ?? '',
      branch,
      base,
      files,
      updatedAt: pull?.updatedAt ?? null,
      merge: job.status === 'archived' ? undefined : await reviewMergeState(repo, jobId, head, baseHead, job.status === 'active'),
      access: await reviewAccess(ctx, c, project),
    }
  }
  return null
}

function notFound(jobId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>No review</title></head><body><h1>No review for job ${escapeHtml(
    jobId,
  )}</h1><p>The job does not exist or has not pushed a branch yet.</p></body></html>\n`
}
