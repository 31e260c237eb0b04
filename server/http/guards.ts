import type { DocentContext } from '../context.ts'
import { type AdminIdentity, type AdminIdentityOptions, adminAuth, assistantAuth, type AuthInfo, organizationAuth } from './auth.ts'
import { clientIp } from './client-ip.ts'
import { projectCors } from './cors.ts'
import { rateLimit, type RateRule } from './rate-limit.ts'
import { type AppContext, type Guard, RATE_LIMIT_HEADERS } from './route.ts'

export interface AssistantGuardOptions {
  /** The assistant message endpoints also count per key per month and per IP per day; search and page do not. */
  countKeyAndIp: boolean
}

const authOf = (c: AppContext): AuthInfo => c.get('auth')

const KEY_ERRORS = {
  401: 'no key, a malformed, unknown, revoked or expired key',
  403: 'a key of the wrong kind, or for another organization or domain; or an Origin that is not allowed',
}
const ADMIN_ERRORS = {
  401: 'no key or console session; a malformed, unknown, revoked or expired key; an ended session',
  403: 'an assistant key, or a key of another organization; a read-only key changing something; a console change without its header',
}

/** CORS → assistant key for `{domain}` → rate limits: the chain every assistant-key route shares. */
export function assistantGuard(ctx: DocentContext, { countKeyAndIp }: AssistantGuardOptions): Guard<AuthInfo> {
  const { limits } = ctx.config
  const cors = projectCors(ctx.projects)
  return {
    security: ['assistant'],
    errors: { ...KEY_ERRORS, 429: 'a rate limit is exhausted' },
    headers: RATE_LIMIT_HEADERS,
    preflight: cors,
    middleware: [
      cors,
      assistantAuth(ctx),
      rateLimit({
        store: ctx.store,
        now: ctx.now,
        rules: (c) => {
          const { key } = authOf(c)
          const rules: RateRule[] = [{ name: 'org-hour', limit: limits.organizationPerHour, window: 'hour', key: () => key.organization }]
          if (countKeyAndIp) {
            rules.unshift({ name: 'key-month', limit: limits.assistantKeyPerMonth, window: 'month', key: () => key.id })
            rules.push({ name: 'ip-day', limit: limits.ipPerDay, window: 'day', key: (c) => clientIp(c, ctx.config.trustProxy) })
          }
          return rules
        },
      }),
    ],
    auth: authOf,
  }
}

/** Admin key (or console session) of the organization that owns `{projectId}`; a `read` key only for safe methods. */
export function adminGuard(ctx: DocentContext): Guard<AuthInfo> {
  return {
    security: ['admin', 'console'],
    errors: { ...ADMIN_ERRORS, 404: 'no such project' },
    middleware: [adminAuth(ctx)],
    auth: authOf,
  }
}

/** Admin key (or console session) of any organization, for routes about the organization itself. */
export function organizationGuard(ctx: DocentContext, options: AdminIdentityOptions = {}): Guard<AdminIdentity> {
  return {
    security: ['admin', 'console'],
    errors: ADMIN_ERRORS,
    middleware: [organizationAuth(ctx, options)],
    auth: (c) => c.get('identity'),
  }
}

/** Admin key, then the per-project hourly limit on agent job creations and follow-ups. */
export function agentWriteGuard(ctx: DocentContext): Guard<AuthInfo> {
  const admin = adminGuard(ctx)
  return {
    ...admin,
    errors: { ...admin.errors, 429: 'the project made its 100 agent requests of this hour' },
    headers: RATE_LIMIT_HEADERS,
    middleware: [
      ...admin.middleware,
      rateLimit({
        store: ctx.store,
        now: ctx.now,
        rules: (c) => [
          { name: 'agent-hour', limit: ctx.config.limits.agentPerProjectPerHour, window: 'hour', key: () => authOf(c).project.id },
        ],
      }),
    ],
  }
}
