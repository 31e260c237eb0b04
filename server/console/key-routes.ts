import { ApiKey, ApiKeyList, CreatedKey, CreateKeyBody } from '../../shared/console.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { organizationGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { createKey, describeKey } from '../keys/keys.ts'
import type { KeyRecord } from '../store/types.ts'
import { sameOrganization } from './shown-organization.ts'

const DAY_MS = 86_400_000

export function keyView(key: KeyRecord, now: Date): ApiKey {
  return {
    id: key.id,
    kind: key.kind,
    name: key.name,
    scope: key.scope,
    projectId: key.projectId,
    hint: describeKey(key),
    status: key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active',
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  }
}

/** `/v2/keys`: the organization's keys (never their secrets), a new key shown once, revocation. */
export function keyRoutes(ctx: DocentContext): Route[] {
  const guard = sameOrganization(organizationGuard(ctx))
  const keysOf = async (organization: string) => (await ctx.store.listKeys(organization)).reverse()
  return [
    route({
      method: 'get',
      path: '/v2/keys',
      tag: 'console',
      summary: "The organization's admin and assistant keys, newest first (prefix and last four characters only)",
      guard,
      responses: { 200: { description: 'the keys', schema: ApiKeyList } },
      handler: async (c, { auth }) => {
        const now = ctx.now()
        return c.json({ keys: (await keysOf(auth.key.organization)).map((key) => keyView(key, now)) } satisfies ApiKeyList)
      },
    }),
    route({
      method: 'post',
      path: '/v2/keys',
      tag: 'console',
      summary: 'Create a key; the answer holds the key itself, shown this once',
      guard,
      body: CreateKeyBody,
      responses: { 200: { description: 'the new key and its secret', schema: CreatedKey } },
      handler: async (c, { auth, body }) => {
        const organization = auth.key.organization
        let projectId: string | null = null
        if (body.kind === 'admin' && body.projectId !== undefined) {
          throw new ApiError(400, 'projectId: an admin key is organization-wide; only an assistant key is made for one project')
        }
        if (body.kind === 'assistant') {
          const project = ctx.projects.byId(body.projectId)
          if (!project || project.organization !== organization) {
            throw new ApiError(400, "projectId: an assistant key needs one of the organization's projects")
          }
          if (body.scope === 'read') throw new ApiError(400, 'scope: assistant keys have no read scope (they only read already)')
          projectId = project.id
        }
        const now = ctx.now()
        const { secret, record } = await createKey(ctx.store, {
          kind: body.kind,
          organization,
          projectId,
          name: body.name,
          scope: body.scope,
          expiresAt: body.expiresInDays ? new Date(now.getTime() + body.expiresInDays * DAY_MS) : null,
          now,
        })
        return c.json({ key: keyView(record, now), secret } satisfies CreatedKey, 200, { 'cache-control': 'no-store' })
      },
    }),
    route({
      method: 'post',
      path: '/v2/keys/{id}/revoke',
      tag: 'console',
      summary: 'Revoke a key: it stops working at once, and console sessions opened with it end',
      guard,
      params: { id: 'the key id (key_...)' },
      responses: {
        200: { description: 'the key, revoked', schema: ApiKey },
        404: { description: 'no such key in this organization' },
      },
      handler: async (c, { auth }) => {
        const id = c.req.param('id')
        const key = (await keysOf(auth.key.organization)).find((candidate) => candidate.id === id)
        if (!key) throw new ApiError(404, 'no such key')
        const now = ctx.now()
        await ctx.store.revokeKey(key.id, now)
        return c.json(keyView({ ...key, revokedAt: key.revokedAt ?? now }, now))
      },
    }),
  ]
}
