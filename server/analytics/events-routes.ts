import { DocentError } from '../../shared/errors.ts'
import { type DocentEvent, EventsBody, MAX_EVENTS_BODY_BYTES } from '../../shared/events.ts'
import type { DocentContext } from '../context.ts'
import { bodyLimit } from '../http/body-limit.ts'
import { assistantGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { callerOf } from '../http/caller.ts'
import { cleanLine, docsPath } from './normalize.ts'

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
        refuseOtherPaths(body.events)
        ctx.analytics.recorder.events(auth.project.id, body.events, callerOf(c), ctx.now())
        return c.body(null, 204)
      },
    }),
  ]
}

/**
 * A `path` must name a page of the docs site (see `docsPath`): it becomes a search term's top clicked page in the
 * console and the exports. Like a field the store cannot hold, another is refused with the whole body, naming the event.
 */
function refuseOtherPaths(events: DocentEvent[]): void {
  events.forEach((event, i) => {
    if (event.path === undefined || !cleanLine(event.path) || docsPath(event.path) !== null) return
    throw new DocentError(
      'invalid_request',
      `events.${i}.path: must be a path on the docs site, as /quickstart or sdks/javascript (not a URL, a scheme or a formula)`,
    )
  })
}
