import type { Caller } from '../../shared/analytics.ts'
import type { AppContext } from './route.ts'

/**
 * Who asked, for caller statistics: a browser on a docs site sends `Origin` (the assistant routes refuse origins a
 * project does not allow, so one that got here is allowed); a server calling the API sends none.
 */
export function callerOf(c: AppContext): Caller {
  return c.req.header('origin') ? 'web' : 'api'
}
