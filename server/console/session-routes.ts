import type { MiddlewareHandler } from 'hono'
import { CONSOLE_HEADER, ConsoleSession, SignInBody } from '../../shared/console.ts'
import type { DocentContext } from '../context.ts'
import { clientIp, limitKeyOfIp } from '../http/client-ip.ts'
import { ApiError } from '../http/errors.ts'
import { organizationGuard } from '../http/guards.ts'
import { rateLimiter } from '../http/rate-limit.ts'
import { type AppContext, type AppEnv, type Guard, publicGuard, RATE_LIMIT_HEADERS, type Route, route } from '../http/route.ts'
import { describeKey, verifyKey } from '../keys/keys.ts'
import type { KeyRecord } from '../store/types.ts'
import { consoleProjects } from './projects.ts'
import { endSession, sessionCookie, sessionIdOf, startSession } from './sessions.ts'

/** Sign-in attempts per client IP per hour. A key has ~190 random bits; the limit keeps a stolen-cookie-less guesser slow and noisy. */
export const SIGN_IN_PER_IP_PER_HOUR = 30

const NO_STORE = { 'cache-control': 'no-store' }

/** HTTPS as the browser sees it: the request itself, the proxy's word when trusted, or the configured public URL. */
function isHttps(ctx: DocentContext, c: AppContext): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true
  if (ctx.config.trustProxy && c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https') return true
  return ctx.config.publicUrl?.startsWith('https://') ?? false
}

function sessionView(ctx: DocentContext, key: KeyRecord, expiresAt: Date | null): ConsoleSession {
  return {
    organization: key.organization,
    scope: key.scope,
    key: { id: key.id, name: key.name, hint: describeKey(key) },
    expiresAt: expiresAt?.toISOString() ?? null,
    projects: consoleProjects(ctx, key.organization),
  }
}

const CROSS_SITE_REFUSED = `the ${CONSOLE_HEADER} header is missing (cross-site requests are refused)`

/**
 * Sign-in and sign-out carry no session to check the header against, so they check it themselves. Sign-in needs it
 * too: a form on another site can post `text/plain` that parses as `{"key": ...}` and sign the visitor's browser into
 * the attacker's organization (login CSRF); no form can set a header, and a script of another origin would need a
 * CORS grant the console never gives.
 */
function requireConsoleHeader(action: 'sign-in' | 'sign-out'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.header(CONSOLE_HEADER) === undefined) {
      throw new ApiError(403, `${action} needs the ${CONSOLE_HEADER} header; cross-site requests are refused`)
    }
    await next()
  }
}

/** `/console/session`: sign in with an admin key, who am I, sign out. */
export function sessionRoutes(ctx: DocentContext): Route[] {
  const signInGuard: Guard<null> = {
    ...publicGuard,
    errors: {
      403: CROSS_SITE_REFUSED,
      429: `more than ${SIGN_IN_PER_IP_PER_HOUR} sign-in attempts from this address this hour`,
    },
    headers: RATE_LIMIT_HEADERS,
    // Before the rate limit: a forged sign-in from another site must not spend this address's attempts either.
    middleware: [requireConsoleHeader('sign-in')],
    // After the body is read, as every limit: a body that is no sign-in ({}) is a 400 and no attempt at a key.
    admit: rateLimiter({
      store: ctx.store,
      now: ctx.now,
      rules: (c) => [
        {
          name: 'console-sign-in',
          limit: SIGN_IN_PER_IP_PER_HOUR,
          window: 'hour',
          key: () => limitKeyOfIp(clientIp(c, ctx.config.trustProxy)),
        },
      ],
    }),
  }
  const signOutGuard: Guard<null> = { ...publicGuard, errors: { 403: CROSS_SITE_REFUSED }, middleware: [requireConsoleHeader('sign-out')] }
  return [
    route({
      method: 'post',
      path: '/console/session',
      tag: 'console',
      summary: 'Sign in to the console with an admin key (sets an HttpOnly session cookie; the key is not kept)',
      guard: signInGuard,
      body: SignInBody,
      responses: {
        200: {
          description: 'signed in; the session cookie is set for 12 hours, or until the key expires if sooner',
          schema: ConsoleSession,
        },
        401: { description: 'not a valid admin key (the answer does not say which part was wrong)' },
      },
      handler: async (c, { body }) => {
        const check = await verifyKey(ctx.store, body.key.trim(), ctx.now())
        // One answer for malformed, unknown, revoked, expired and assistant keys: a guesser learns nothing.
        if (!check.ok || check.key.kind !== 'admin') throw new ApiError(401, 'this key does not open the console')
        const { id, session } = await startSession(ctx.store, check.key, ctx.now())
        const maxAgeSeconds = Math.ceil((session.expiresAt.getTime() - ctx.now().getTime()) / 1000)
        c.header('set-cookie', sessionCookie(id, { secure: isHttps(ctx, c), maxAgeSeconds }))
        return c.json(sessionView(ctx, check.key, session.expiresAt), 200, NO_STORE)
      },
    }),
    route({
      method: 'get',
      path: '/console/session',
      tag: 'console',
      summary: 'Who is signed in: organization, scope, projects (with a Bearer admin key: that key)',
      // Not sameOrganization: this is how a console tab finds out that another tab signed in as someone else.
      guard: organizationGuard(ctx),
      responses: { 200: { description: 'the session', schema: ConsoleSession } },
      handler: (c, { auth }) => c.json(sessionView(ctx, auth.key, auth.session?.expiresAt ?? auth.key.expiresAt), 200, NO_STORE),
    }),
    route({
      method: 'delete',
      path: '/console/session',
      tag: 'console',
      summary: 'Sign out: the session ends in the store, so the old cookie is refused from now on',
      guard: signOutGuard,
      responses: { 204: { description: 'signed out (also when there was no session)' } },
      handler: async (c) => {
        const id = sessionIdOf(c.req.header('cookie'))
        if (id) await endSession(ctx.store, id)
        c.header('set-cookie', sessionCookie('', { secure: isHttps(ctx, c), maxAgeSeconds: 0 }))
        return c.body(null, 204, NO_STORE)
      },
    }),
  ]
}
