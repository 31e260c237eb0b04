import type { ProjectConfig } from '../config.ts'
import { docsArePublic } from '../config.ts'
import type { DocentContext } from '../context.ts'
import {
  type AdminIdentity,
  type AdminIdentityOptions,
  adminAuth,
  assistantAuth,
  type AuthInfo,
  docsAuth,
  type DocsAuthInfo,
  organizationAuth,
} from './auth.ts'
import { projectCors } from './cors.ts'
import { type Quota, quotaRules } from './quotas.ts'
import { AGENT_HOUR_RULE, rateLimiter } from './rate-limit.ts'
import { type AppContext, type Guard, RATE_LIMIT_HEADERS } from './route.ts'

export interface AssistantGuardOptions {
  /** What the endpoint spends: an answer, or feedback on one. */
  quota: Exclude<Quota, 'docs'>
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

const byDomain = (ctx: DocentContext) => (c: AppContext) => ctx.projects.byDomain(c.req.param('domain'))

/** CORS → assistant key for `{domain}` → (after validation) rate limits: the chain of the answer and feedback routes. */
export function assistantGuard(ctx: DocentContext, { quota }: AssistantGuardOptions): Guard<AuthInfo> {
  const cors = projectCors({ projectOf: byDomain(ctx) })
  const admit = rateLimiter({
    store: ctx.store,
    now: ctx.now,
    rules: (c) => {
      const { key, project } = authOf(c)
      return quotaRules(ctx.config, quota, { organization: project.organization, key })
    },
  })
  return {
    security: ['assistant'],
    errors: { ...KEY_ERRORS, 429: 'a rate limit is exhausted' },
    headers: RATE_LIMIT_HEADERS,
    preflight: cors,
    middleware: [cors, assistantAuth(ctx)],
    admit,
    auth: authOf,
  }
}

export interface DocsGuardOptions {
  /** The project whose docs are read; by default the one of `{domain}`. May throw (a 404 for an unknown domain). */
  projectOf?(c: AppContext): ProjectConfig | undefined
  /** Grant every origin when the docs are public (the docs files); else only the project's `allowedOrigins`. */
  publicToAnyOrigin?: boolean
}

/**
 * Reading a project's docs (search, page, llms.txt, markdown): the project's assistant key, or none when its docs are
 * public; CORS from the project's `allowedOrigins` (any origin for the files of public docs); the `docs` quota.
 */
export function docsGuard(
  ctx: DocentContext,
  { projectOf = byDomain(ctx), publicToAnyOrigin = false }: DocsGuardOptions = {},
): Guard<DocsAuthInfo> {
  const cors = projectCors({ projectOf, anyOrigin: publicToAnyOrigin ? docsArePublic : undefined })
  const auth = (c: AppContext): DocsAuthInfo => c.get('docsAuth')
  const admit = rateLimiter({
    store: ctx.store,
    now: ctx.now,
    rules: (c) => {
      const { key, project } = auth(c)
      return quotaRules(ctx.config, 'docs', { organization: project.organization, key })
    },
  })
  return {
    security: ['assistant', 'none'],
    errors: {
      401: 'the docs are not public, and no valid assistant key was sent (or a malformed, unknown, revoked or expired one)',
      403: KEY_ERRORS[403],
      429: 'a rate limit is exhausted',
    },
    headers: RATE_LIMIT_HEADERS,
    preflight: cors,
    middleware: [cors, docsAuth(ctx, projectOf)],
    admit,
    auth,
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
    admit: rateLimiter({
      store: ctx.store,
      now: ctx.now,
      rules: (c) => [
        { name: AGENT_HOUR_RULE, limit: ctx.config.limits.agentPerProjectPerHour, window: 'hour', key: () => authOf(c).project.id },
      ],
    }),
  }
}
