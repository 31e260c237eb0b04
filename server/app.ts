import { Hono } from 'hono'
import { methodNotAllowed } from 'hono/method-not-allowed'
import { requestId } from 'hono/request-id'
import { z } from 'zod'
import { agentRoutes } from './agent/routes.ts'
import { eventsRoutes } from './analytics/events-routes.ts'
import { analyticsRoutes } from './analytics/routes.ts'
import { mergeRoutes } from './agent/merge-routes.ts'
import { automationRoutes } from './automations/routes.ts'
import { reviewRoutes } from './agent/review-routes.ts'
import { assistantRoutes } from './assistant/routes.ts'
import { threadRoutes } from './assistant/thread-routes.ts'
import { consoleFiles } from './console/app-files.ts'
import { consoleRoutes } from './console/routes.ts'
import type { DocentContext } from './context.ts'
import { accessLog } from './http/access-log.ts'
import { bodyLimit } from './http/body-limit.ts'
import { refuseWhileStopping } from './http/stopping.ts'
import { compressResponses } from './http/compress.ts'
import { errorHandler } from './http/errors.ts'
import { apiPrefixes, type AppEnv, publicGuard, type Route, route } from './http/route.ts'
import { llmsRoutes } from './llms/routes.ts'
import { mcpRoutes } from './mcp/routes.ts'
import { openApiDocument } from './openapi.ts'
import { readinessRoute } from './readiness.ts'
import { searchRoutes } from './search/routes.ts'
import { siteRoutes } from './site/routes.ts'
import { WEBHOOKS_PREFIX, webhookRoutes } from './webhooks/routes.ts'

const Healthz = z.object({ ok: z.literal(true) }).meta({ id: 'Healthz' })

/** Every declared route of the API, in the order they are matched. */
export function declaredRoutes(ctx: DocentContext): Route[] {
  const routes: Route[] = [
    route({
      method: 'get',
      path: '/healthz',
      tag: 'meta',
      summary: 'Liveness',
      guard: publicGuard,
      responses: { 200: { description: 'the server answers', schema: Healthz } },
      handler: (c) => c.json({ ok: true }),
    }),
    readinessRoute(ctx),
    ...assistantRoutes(ctx),
    ...searchRoutes(ctx),
    ...eventsRoutes(ctx),
    ...threadRoutes(ctx),
    ...agentRoutes(ctx),
    ...automationRoutes(ctx),
    ...consoleRoutes(ctx),
    ...analyticsRoutes(ctx),
    ...mcpRoutes(ctx),
    ...reviewRoutes(ctx),
    ...mergeRoutes(ctx),
    ...webhookRoutes(ctx),
    ...llmsRoutes(ctx),
  ]
  routes.push(
    route({
      method: 'get',
      path: '/openapi.json',
      tag: 'meta',
      summary: 'This OpenAPI document, generated from the route declarations',
      guard: publicGuard,
      responses: { 200: { description: 'OpenAPI 3.1', content: { type: 'application/json' } } },
      handler: (c) => c.json(openApiDocument(routes)),
    }),
  )
  return routes
}

/**
 * Assembles the Hono app: request id and errors first, body limit, the declared routes, then the docs site (pages
 * and widget files), which takes what the API does not.
 */
export function buildApp(ctx: DocentContext): Hono<AppEnv> {
  const routes = declaredRoutes(ctx)
  const api = new Hono<AppEnv>({ strict: false })
  for (const declared of routes) declared.register(api)

  // Not strict: `/mcp/demo/` is `/mcp/demo` (client configs often end URLs with a slash).
  const app = new Hono<AppEnv>({ strict: false })
  app.onError(errorHandler(ctx.log, { trustProxy: ctx.config.trustProxy }))
  app.use('*', requestId())
  if (ctx.config.accessLog) app.use('*', accessLog(ctx.log))
  app.use(
    '*',
    refuseWhileStopping(() => ctx.stopping),
  )
  // Outside everything else, so error bodies and the site's pages are compressed too (streams are left alone).
  app.use('*', compressResponses({ threshold: 1024 }))
  // From the declared routes only: the site answers GET on every other path, which is not an API method.
  app.use(
    '*',
    methodNotAllowed({
      app: api,
      onMethodNotAllowed: (c, methods) =>
        c.json({ error: `method ${c.req.method} not allowed; use ${methods.join(', ')}`, code: 'method_not_allowed' }, 405, {
          allow: methods.join(', '),
        }),
    }),
  )
  // Hosts' webhook deliveries come in the hosts' sizes, not the API's: their routes set their own limit.
  const apiBodyLimit = bodyLimit({ maxBytes: ctx.config.limits.bodyBytes, timeoutSeconds: ctx.config.limits.bodySeconds })
  app.use('*', (c, next) => (c.req.path.startsWith(WEBHOOKS_PREFIX) ? next() : apiBodyLimit(c, next)))
  app.route('/', api)
  app.route('/', consoleFiles())
  app.route('/', siteRoutes(ctx, apiPrefixes(routes)))
  // Returned, not thrown: the 405 check above looks at a 404 response, and skips errors.
  app.notFound((c) => c.json({ error: 'not found', code: 'not_found' }, 404))
  return app
}
