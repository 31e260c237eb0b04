import type { MiddlewareHandler } from 'hono'
import { refusalGrant } from './cors.ts'
import { ApiError } from './errors.ts'

/** What a refused client waits before asking again: about how long a restart takes. */
const RETRY_AFTER_SECONDS = 5

/**
 * Once the server is stopping, a request that still arrives (on a kept-alive connection: new connections are no longer
 * accepted) gets 503 with Retry-After and `Connection: close`, so the client asks again elsewhere or later. Before, it
 * was served, and once the store had closed it got a 500 ("PGlite is closed"). Preflights are still answered: they read
 * only the configuration, and a failed preflight looks to the page like an outage or a refused origin.
 *
 * @param stopping whether the server has begun to stop
 */
export const refuseWhileStopping =
  (stopping: () => boolean): MiddlewareHandler =>
  async (c, next) => {
    if (!stopping() || c.req.method === 'OPTIONS') return next()
    throw new ApiError(503, 'the server is restarting; try again in a few seconds', {
      'retry-after': String(RETRY_AFTER_SECONDS),
      connection: 'close',
      ...refusalGrant(c),
    })
  }
