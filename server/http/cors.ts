import type { Context, MiddlewareHandler } from 'hono'
import type { ProjectConfig } from '../config.ts'
import { ApiError } from './errors.ts'
import type { AppContext, AppEnv } from './route.ts'

const ALLOW_HEADERS = 'authorization, content-type, x-requested-with'
const EXPOSE_HEADERS = 'x-thread-id, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id'

/**
 * The grant of a refusal made before a route's own CORS runs (the body limit, a stopping server), so the page reads
 * why (a 413, a 503 with Retry-After) instead of a bare network error. Safe to give any origin: a browser sends such a
 * request only after the route's preflight granted that origin (a JSON body, a key header), and the refusal itself
 * holds nothing but the reason.
 */
export function refusalGrant(c: Context): Record<string, string> {
  const origin = c.req.header('origin')
  if (!origin) return {}
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSE_HEADERS, vary: 'Origin' }
}

export interface ProjectCorsOptions {
  /** The project the request is for (by `{domain}`, or the site's); none: no grant. */
  projectOf(c: AppContext): ProjectConfig | undefined
  /** Grant every origin for this project, whatever `allowedOrigins` says (its docs are public). */
  anyOrigin?(project: ProjectConfig): boolean
}

/**
 * CORS for the endpoints browsers call, from the project's `allowedOrigins`. A preflight from an allowed origin gets
 * 204 and the grant; a request whose Origin is not allowed gets 403 and no grant.
 */
export const projectCors =
  ({ projectOf, anyOrigin }: ProjectCorsOptions): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const origin = c.req.header('origin')
    const project = projectOf(c)
    const wildcard = project !== undefined && (anyOrigin?.(project) || project.allowedOrigins.includes('*'))
    const grant = origin !== undefined && (wildcard || (project?.allowedOrigins.includes(origin) ?? false))
    const grantHeaders = (headers: Headers) => {
      headers.set('access-control-allow-origin', wildcard ? '*' : origin!)
      headers.set('access-control-expose-headers', EXPOSE_HEADERS)
      if (!wildcard) headers.append('vary', 'Origin')
    }
    if (c.req.method === 'OPTIONS') {
      if (!grant) throw new ApiError(403, 'origin not allowed')
      const headers = new Headers({
        'access-control-allow-methods': 'POST, GET, OPTIONS',
        'access-control-allow-headers': c.req.header('access-control-request-headers') ?? ALLOW_HEADERS,
        'access-control-max-age': '600',
      })
      grantHeaders(headers)
      return new Response(null, { status: 204, headers })
    }
    // Docent's own pages (the demo site at `/`) call the API from the server's origin: not a cross-origin request.
    const sameOrigin = origin !== undefined && origin === new URL(c.req.url).origin
    if (origin !== undefined && !grant && !sameOrigin) throw new ApiError(403, `origin ${origin} is not allowed for this project`)
    if (grant) {
      // Set on the context before next(): an error thrown further down becomes a c.json() response that keeps
      // these headers, so the browser can read a 401 or 429; set again after, for handlers that return a raw Response.
      c.header('access-control-allow-origin', wildcard ? '*' : origin)
      c.header('access-control-expose-headers', EXPOSE_HEADERS)
      if (!wildcard) c.header('vary', 'Origin', { append: true })
    }
    await next()
    if (grant && !c.res.headers.has('access-control-allow-origin')) grantHeaders(c.res.headers)
  }
