import { z } from 'zod'
import { DocentError } from '../shared/errors.ts'
import type { DocentContext } from './context.ts'
import { publicGuard, RETRY_AFTER, type Route, route } from './http/route.ts'

/** How long the store may take to answer a readiness check before the server counts as not ready. */
export const STORE_PING_MS = 2000

const Readyz = z
  .object({
    ok: z.literal(true),
    /** Projects that cannot answer yet, while others can: the server takes traffic, the operator has something to fix. */
    degraded: z.array(z.string()).optional(),
  })
  .meta({ id: 'Readyz' })

/**
 * Whether the server can do its work, for load balancers and orchestrators: `/healthz` says the process answers,
 * `/readyz` that the store answers and some project's docs are loaded. Before, `/healthz` said ok while PostgreSQL was
 * down and every request failed, and while the only project's docs had failed to load. The causes go to the log; the
 * public answer names the project and the kind of trouble only.
 */
export function readinessRoute(ctx: DocentContext): Route {
  return route({
    method: 'get',
    path: '/readyz',
    tag: 'meta',
    summary: 'Readiness: the store answers and the docs are loaded',
    guard: publicGuard,
    responses: {
      200: { description: 'ready; `degraded` lists projects that cannot answer yet while others can', schema: Readyz },
      503: {
        description: 'not ready: the store does not answer, or no project has its docs loaded',
        headers: { 'Retry-After': RETRY_AFTER },
      },
    },
    handler: async (c) => {
      const storeProblem = await pingStore(ctx)
      const docs = ctx.projects.all.map((project) => [project.id, docsProblem(ctx, project.id)] as const)
      const waiting = docs.flatMap(([id, problem]) => (problem ? [`project ${id}: ${problem}`] : []))
      if (storeProblem || waiting.length === docs.length) {
        throw new DocentError('unavailable', `not ready: ${[storeProblem, ...waiting].filter(Boolean).join('; ')}`, {
          retryAfterSeconds: 5,
        })
      }
      return c.json(waiting.length > 0 ? { ok: true as const, degraded: waiting } : { ok: true as const })
    },
  })
}

async function pingStore(ctx: DocentContext): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), STORE_PING_MS)))
  try {
    const answer = await Promise.race([ctx.store.ping().then(() => 'ok' as const), late])
    return answer === 'late' ? `the store did not answer within ${STORE_PING_MS / 1000} s` : undefined
  } catch (error) {
    ctx.log.error('readiness: the store failed', { error: String(error) })
    return 'the store failed (see the log)'
  } finally {
    clearTimeout(timer)
  }
}

function docsProblem(ctx: DocentContext, projectId: string): string | undefined {
  // A search service that keeps no status (one passed in by a library user) is taken at its word.
  if (!ctx.search.status) return undefined
  const status = ctx.search.status(projectId)
  if (!status) return 'docs still loading'
  // A refresh that failed after a load leaves the loaded docs answering: only a project that never loaded waits.
  if (status.revision === null) return 'docs failed to load (see the log)'
  // A source with no pages (an empty folder, a root with no page files) has nothing to answer from.
  if (status.pages === 0) return 'docs have no pages'
  return undefined
}
