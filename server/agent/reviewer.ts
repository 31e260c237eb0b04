import type { ProjectConfig } from '../config.ts'
import { resolveSession, sessionIdOf } from '../console/sessions.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { AppContext } from '../http/route.ts'

/**
 * What the person looking at a review page may do: merge (a console session of a write key of the project's
 * organization), only look (a read key's session), or sign in first. The page is reached by its unguessable link,
 * which notifications and gap records pass around; merging is a write, and needs who may write, as the merge API does.
 */
export type ReviewAccess = 'write' | 'read' | 'signed-out'

export async function reviewAccess(ctx: DocentContext, c: AppContext, project: ProjectConfig): Promise<ReviewAccess> {
  const sessionId = sessionIdOf(c.req.header('cookie'))
  if (sessionId === null) return 'signed-out'
  const check = await resolveSession(ctx.store, sessionId, ctx.now())
  if (!check.ok || check.key.organization !== project.organization) return 'signed-out'
  return check.key.scope === 'read' ? 'read' : 'write'
}

/** Refuses a merge from the review page unless its session may write (see reviewAccess). */
export async function requireReviewWriter(ctx: DocentContext, c: AppContext, project: ProjectConfig): Promise<void> {
  const access = await reviewAccess(ctx, c, project)
  if (access === 'signed-out') {
    throw new ApiError(401, `sign in to the console with a write key of ${project.organization} to merge, then merge from the review page`)
  }
  if (access === 'read') throw new ApiError(403, 'this key is read-only (scope "read"): it can see everything and change nothing')
}
