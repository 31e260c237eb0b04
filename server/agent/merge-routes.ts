import { MergeResult } from '../../shared/analytics.ts'
import { DocentError } from '../../shared/errors.ts'
import type { DocentContext } from '../context.ts'
import { ApiError, statusOf } from '../http/errors.ts'
import { adminGuard } from '../http/guards.ts'
import { type AppContext, publicGuard, type Route, route } from '../http/route.ts'
import { escapeHtml } from './hosts/review-page.ts'
import { getJobOr404 } from './jobs.ts'
import { mergeJob } from './merge.ts'
import { isCommitId, isJobIdShape } from '../shapes.ts'
import { requireReviewWriter } from './reviewer.ts'
import { noFraming } from './hosts/review-page.ts'

const JOB_PARAMS = { projectId: 'the project', id: 'the job id' }

/**
 * Merging a local pull request: the API (`POST /v2/agent/{projectId}/job/{id}/merge`, admin key) and the review
 * page's Merge button (`POST /review/{jobId}/merge`, a form post).
 */
export function mergeRoutes(ctx: DocentContext): Route[] {
  return [
    route({
      method: 'post',
      path: '/v2/agent/{projectId}/job/{id}/merge',
      tag: 'agent',
      summary: "Merge the job's pull request (the local git host only): fast-forward or merge commit",
      description:
        'On GitHub/GitLab merge the pull request there: Docent learns of it by webhook or poll. A gap the job fixes then goes on to verification.',
      guard: adminGuard(ctx),
      params: JOB_PARAMS,
      responses: {
        200: { description: 'merged (or merged already: the same result again)', schema: MergeResult },
        404: { description: 'no such job in this project' },
        409: {
          description:
            'conflicts (the message names the files), a run in progress, no pull request, an archived job, or not the local host',
        },
      },
      handler: async (c, { auth }) => {
        const job = await getJobOr404(ctx, auth.project, c.req.param('id')!)
        return c.json(await mergeJob(ctx, auth.project, job))
      },
    }),
    route({
      method: 'post',
      path: '/review/{jobId}/merge',
      tag: 'agent',
      summary: 'The review page’s Merge button (a same-origin form post; then back to the page)',
      description:
        'Merges as the signed-in docs team: a console session (its cookie) of a write key of the project’s organization, as the merge API needs an admin key. Cross-site posts are refused (Origin / Sec-Fetch-Site, and the cookie is SameSite=Strict), and `head` must be the branch head the page showed, so what is merged is what was reviewed.',
      guard: publicGuard,
      params: { jobId: 'the job id' },
      responses: {
        303: { description: 'merged: back to the review page, which shows it', headers: { Location: { description: 'the review page' } } },
        400: { description: 'no head in the form' },
        401: { description: 'no console session of the project’s organization: sign in to the console first' },
        403: { description: 'a cross-site post, or a read-only key’s session' },
        404: { description: 'no such job on the local git host' },
        409: { description: 'the branch moved since the page was shown, conflicts, a run in progress, or nothing to merge' },
        415: { description: 'not a form post (application/x-www-form-urlencoded)' },
      },
      handler: async (c) => {
        const jobId = c.req.param('jobId')!
        try {
          checkSameOriginForm(c, ctx.config.publicUrl)
          const form = new URLSearchParams(await c.req.text())
          const head = form.get('head')
          if (!head || !isCommitId(head)) throw new DocentError('invalid_request', 'head: the form must carry the reviewed head commit')
          const found = await findLocalJob(ctx, jobId)
          if (!found) throw new DocentError('not_found', 'no such job on the local git host')
          await requireReviewWriter(ctx, c, found.project)
          await mergeJob(ctx, found.project, found.job, { expectedHead: head })
          return c.redirect(`/review/${encodeURIComponent(jobId)}`, 303)
        } catch (error) {
          // A person pressed a button: they get a page saying what went wrong, with the way back.
          if (!(c.req.header('accept') ?? '').includes('text/html') || !(error instanceof DocentError)) throw error
          const status = error instanceof ApiError ? error.status : statusOf(error.code)
          noFraming(c)
          c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
          return c.html(mergeRefused(jobId, error.message), status)
        }
      },
    }),
  ]
}

/**
 * The defence against cross-site request forgery for a form that needs no key: browsers send `Origin` (and
 * `Sec-Fetch-Site`) with every form post, and a page of another site cannot make them name this one.
 */
function checkSameOriginForm(c: AppContext, publicUrl: string | undefined) {
  if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) {
    throw new ApiError(
      415,
      'the merge button posts a form (application/x-www-form-urlencoded); API clients use POST /v2/agent/{projectId}/job/{id}/merge',
    )
  }
  const allowed = new Set([new URL(c.req.url).origin, ...(publicUrl ? [new URL(publicUrl).origin] : [])])
  const origin = c.req.header('origin')
  const sameSite = origin ? allowed.has(origin) : c.req.header('sec-fetch-site') === 'same-origin'
  if (!sameSite) throw new ApiError(403, 'cross-site request refused: merge from the review page itself')
}

async function findLocalJob(ctx: DocentContext, jobId: string) {
  if (!isJobIdShape(jobId)) return null
  for (const project of ctx.config.projects) {
    if (project.agent?.host.kind !== 'local') continue
    const job = await ctx.store.getJob(project.id, jobId)
    if (job) return { project, job }
  }
  return null
}

function mergeRefused(jobId: string, message: string): string {
  const back = `/review/${encodeURIComponent(jobId)}`
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not merged</title></head><body style="font:15px/1.5 system-ui,sans-serif;max-width:720px;margin:40px auto;padding:0 24px"><h1>Not merged</h1><p>${escapeHtml(
    message,
  )}</p><p><a href="${escapeHtml(back)}">Back to the review</a></p></body></html>\n`
}
