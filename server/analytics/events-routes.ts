import { EventsBody, MAX_EVENTS_BODY_BYTES } from '../../shared/events.ts'
import type { DocentContext } from '../context.ts'
import { bodyLimit } from '../http/body-limit.ts'
import { assistantGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { callerOf } from '../http/caller.ts'

/**
 * `POST /discovery/v1/events/{domain}`: what readers did in the widget that analytics counts (settled searches,
 * clicks on search results and on answers' sources). The assistant key and CORS of the other assistant endpoints, the
 * `events` quota; a small body (8 KiB, 20 events), recorded off the request's path.
 */
export function eventsRoutes(ctx: DocentContext): Route[] {
  const guard = assistantGuard(ctx, { quota: 'events' })
  return [
    route({
      method: 'post',
      path: '/discovery/v1/events/{domain}',
      tag: 'assistant',
      summary: 'Report widget events: settled searches, search result clicks, source clicks',
      guard: { ...guard, middleware: [...guard.middleware, bodyLimit({ maxBytes: MAX_EVENTS_BODY_BYTES })] },
      body: EventsBody,
      responses: {
        204: { description: 'recorded' },
        413: { description: `the body is larger than ${MAX_EVENTS_BODY_BYTES} bytes` },
      },
      handler: async (c, { auth, body }) => {
        ctx.analytics.recorder.events(auth.project.id, body.events, callerOf(c), ctx.now())
        return c.body(null, 204)
      },
    }),
  ]
}
