import { Hono } from 'hono'
import { agentRoutes } from './agent/routes.ts'
import { reviewRoutes } from './agent/review-routes.ts'
import { assistantRoutes } from './assistant/routes.ts'
import { threadRoutes } from './assistant/thread-routes.ts'
import type { DocentContext } from './context.ts'
import { bodyLimit } from './http/body-limit.ts'
import { ApiError, errorHandler } from './http/errors.ts'
import { requestId } from './http/request-id.ts'
import { llmsRoutes } from './llms/routes.ts'
import { mcpRoutes } from './mcp/routes.ts'
import { openApiDocument } from './openapi.ts'
import { searchRoutes } from './search/routes.ts'
import { siteRoutes } from './site/routes.ts'

/** Assembles the Hono app: request id and errors first, body limit, then the feature routes. */
export function buildApp(ctx: DocentContext): Hono {
  const app = new Hono()
  app.onError(errorHandler(ctx.log))
  app.use('*', requestId())
  app.use('*', bodyLimit({ maxBytes: ctx.config.limits.bodyBytes }))

  app.get('/healthz', (c) => c.json({ ok: true }))
  app.get('/openapi.json', (c) => c.json(openApiDocument()))

  app.route('/', assistantRoutes(ctx))
  app.route('/', searchRoutes(ctx))
  app.route('/', threadRoutes(ctx))
  app.route('/', agentRoutes(ctx))
  app.route('/', mcpRoutes(ctx))
  app.route('/', reviewRoutes(ctx))
  // Before the site: `/llms.txt` and `<page>.md` would otherwise reach the site's page routes.
  app.route('/', llmsRoutes(ctx))
  app.route('/', siteRoutes(ctx))

  app.notFound((c) => {
    const allowed = methodsFor(app, c.req.path)
    if (allowed.length > 0) {
      throw new ApiError(405, `method ${c.req.method} not allowed; use ${allowed.join(', ')}`, { allow: allowed.join(', ') })
    }
    throw new ApiError(404, 'not found')
  })
  return app
}

/** Methods registered for a path, to tell 405 from 404 (Hono answers both as not found). */
function methodsFor(app: Hono, path: string): string[] {
  const methods = new Set<string>()
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.endsWith('*')) continue
    const pattern = new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/:[^/]+/g, '/[^/]+')}/?$`)
    if (pattern.test(path)) methods.add(route.method)
  }
  return [...methods].filter((method) => method !== 'OPTIONS' || methods.size === 1)
}
