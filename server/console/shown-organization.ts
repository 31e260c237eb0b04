import type { MiddlewareHandler } from 'hono'
import { ORGANIZATION_HEADER } from '../../shared/console-names.ts'
import type { AdminIdentity } from '../http/auth.ts'
import { ApiError } from '../http/errors.ts'
import { decodedOnce } from '../percent-decoding.ts'
import type { AppEnv, Guard } from '../http/route.ts'

/*
 * The organization a console tab shows (ORGANIZATION_HEADER), sent with every request. Its session cookie is the
 * browser's, shared by every tab: after another tab signs in to another organization, a tab still showing the first
 * would otherwise list and change the second one's keys. Project routes need no such check: a project belongs to one
 * organization, and a session of another is refused there already (403).
 */

const OTHER_ORGANIZATION = `the ${ORGANIZATION_HEADER} header names another organization than the key's (for the console: another tab signed in as someone else)`

/**
 * The guard of a route about the caller's organization, refusing (409) a request that names another organization
 * than the caller's. A request without the header (API clients) is not checked.
 */
export function sameOrganization(guard: Guard<AdminIdentity>): Guard<AdminIdentity> {
  const check: MiddlewareHandler<AppEnv> = async (c, next) => {
    const shown = c.req.header(ORGANIZATION_HEADER)
    const { organization } = guard.auth(c).key
    if (shown !== undefined && decodedOnce(shown) !== organization) {
      throw new ApiError(
        409,
        `this browser is now signed in to organization ${organization}, not the one this page shows (another tab signed in): reload the page`,
      )
    }
    await next()
  }
  return { ...guard, errors: { ...guard.errors, 409: OTHER_ORGANIZATION }, middleware: [...guard.middleware, check] }
}
