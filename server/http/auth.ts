import type { MiddlewareHandler } from 'hono'
import { CONSOLE_HEADER } from '../../shared/console.ts'
import { docsArePublic, type ProjectConfig } from '../config.ts'
import { resolveSession, sessionIdOf } from '../console/sessions.ts'
import type { DocentContext } from '../context.ts'
import { verifyKey } from '../keys/keys.ts'
import type { KeyRecord, SessionRecord } from '../store/types.ts'
import { ApiError } from './errors.ts'
import type { AppContext, AppEnv } from './route.ts'

/** An admin caller: the key, and the console session it came through (null for `Authorization: Bearer`). */
export interface AdminIdentity {
  key: KeyRecord
  session: SessionRecord | null
}

export interface AuthInfo extends Partial<AdminIdentity> {
  key: KeyRecord
  project: ProjectConfig
}

/** Who reads a project's docs: with its assistant key, or with none when the docs are public. */
export interface DocsAuthInfo {
  key: KeyRecord | null
  project: ProjectConfig
}

const bearer = /^Bearer\s+(\S+)\s*$/i

async function authenticate(ctx: DocentContext, header: string | undefined): Promise<KeyRecord> {
  const match = header ? bearer.exec(header) : null
  if (!match) {
    throw new ApiError(401, 'missing or malformed Authorization header; expected "Bearer <key>"', { 'www-authenticate': 'Bearer' })
  }
  const check = await verifyKey(ctx.store, match[1]!, ctx.now())
  if (!check.ok) throw new ApiError(401, check.reason, { 'www-authenticate': 'Bearer error="invalid_token"' })
  return check.key
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
export const changesState = (method: string) => !SAFE_METHODS.has(method.toUpperCase())

export interface AdminIdentityOptions {
  /** Let a `read` key through a state-changing method (signing out of its own session is allowed). */
  readScopeMayChange?: boolean
}

/**
 * The admin caller: `Authorization: Bearer <admin key>`, else the console's session cookie. A session's
 * state-changing requests must carry the console header (with SameSite=Strict, that makes them CSRF-safe); a
 * `read` key may call every safe method and nothing else.
 */
export async function adminIdentity(ctx: DocentContext, c: AppContext, options: AdminIdentityOptions = {}): Promise<AdminIdentity> {
  const header = c.req.header('authorization')
  const sessionId = header === undefined ? sessionIdOf(c.req.header('cookie')) : null
  let identity: AdminIdentity
  if (sessionId !== null) {
    const check = await resolveSession(ctx.store, sessionId, ctx.now())
    if (!check.ok) throw new ApiError(401, check.reason)
    if (changesState(c.req.method) && c.req.header(CONSOLE_HEADER) === undefined) {
      throw new ApiError(403, `a console session's changes need the ${CONSOLE_HEADER} header; cross-site requests are refused`)
    }
    identity = { key: check.key, session: check.session }
  } else {
    const key = await authenticate(ctx, header)
    if (key.kind !== 'admin') throw new ApiError(403, 'this endpoint needs an admin key (svc_...), not an assistant key')
    identity = { key, session: null }
  }
  if (identity.key.scope === 'read' && changesState(c.req.method) && !options.readScopeMayChange) {
    throw new ApiError(403, 'this key is read-only (scope "read"): it can see everything and change nothing')
  }
  return identity
}

/** Admin key (or console session) of the organization that owns `:projectId`. */
export const adminAuth =
  (ctx: DocentContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const identity = await adminIdentity(ctx, c)
    const project = ctx.projects.byId(c.req.param('projectId'))
    if (!project) throw new ApiError(404, 'no such project')
    if (project.organization !== identity.key.organization) {
      throw new ApiError(403, 'this key does not belong to the organization of this project')
    }
    c.set('auth', { ...identity, project })
    await next()
  }

/** Admin key (or console session) of any organization: routes about the organization itself (its keys, its projects). */
export const organizationAuth =
  (ctx: DocentContext, options: AdminIdentityOptions = {}): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set('identity', await adminIdentity(ctx, c, options))
    await next()
  }

/** The assistant key presented, checked against the project of `domain`. */
async function assistantKeyFor(ctx: DocentContext, c: AppContext, domain: string | undefined): Promise<AuthInfo> {
  const key = await authenticate(ctx, c.req.header('authorization'))
  if (key.kind !== 'assistant') throw new ApiError(403, 'this endpoint needs an assistant key (svc_dsc_...)')
  const project = ctx.projects.byId(key.projectId)
  if (!project || project.domain !== domain) throw new ApiError(403, `this key is not valid for domain "${domain}"`)
  return { key, project }
}

/** Assistant key made for `:domain`. */
export const assistantAuth =
  (ctx: DocentContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    c.set('auth', await assistantKeyFor(ctx, c, c.req.param('domain')))
    await next()
  }

/**
 * Reading the docs of `projectOf(c)`: its assistant key; or no key at all when its docs are public (`docs.public`). A
 * key that is sent is checked either way, so a wrong one is refused rather than ignored.
 */
export const docsAuth =
  (ctx: DocentContext, projectOf: (c: AppContext) => ProjectConfig | undefined): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const project = projectOf(c)
    if (project && docsArePublic(project) && c.req.header('authorization') === undefined) {
      c.set('docsAuth', { key: null, project })
    } else {
      c.set('docsAuth', await assistantKeyFor(ctx, c, project?.domain ?? c.req.param('domain')))
    }
    await next()
  }
