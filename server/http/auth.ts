import type { MiddlewareHandler } from 'hono'
import { docsArePublic, type ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { verifyKey } from '../keys/keys.ts'
import type { KeyRecord } from '../store/types.ts'
import { ApiError } from './errors.ts'
import type { AppContext, AppEnv } from './route.ts'

export interface AuthInfo {
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

/** Admin key of the organization that owns `:projectId`. */
export const adminAuth =
  (ctx: DocentContext): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const key = await authenticate(ctx, c.req.header('authorization'))
    if (key.kind !== 'admin') throw new ApiError(403, 'this endpoint needs an admin key (svc_...), not an assistant key')
    const project = ctx.projects.byId(c.req.param('projectId'))
    if (!project) throw new ApiError(404, 'no such project')
    if (project.organization !== key.organization) throw new ApiError(403, 'this key does not belong to the organization of this project')
    c.set('auth', { key, project })
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
