import type { MiddlewareHandler } from 'hono'
import type { Logger } from '../log.ts'
import type { AppEnv } from './route.ts'

/**
 * One log line per request, once its response is known: method, path, status, the milliseconds until the response was
 * ready (a stream's headers, not its end) and the request id the response carries. The query string is left out: a
 * reader's search or question is theirs, and the path says which endpoint served it. No IP address either: behind a
 * proxy only `trustProxy` makes it the client's, and a log kept for operations need not hold personal data.
 */
export function accessLog(log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    await next()
    log.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
      requestId: c.get('requestId'),
    })
  }
}
