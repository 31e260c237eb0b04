import type { MiddlewareHandler } from 'hono'
import { every } from 'hono/combine'
import type { DocentContext } from '../context.ts'
import { adminAuth, assistantAuth } from './auth.ts'
import { clientIp } from './client-ip.ts'
import { projectCors } from './cors.ts'
import { rateLimit, type RateRule } from './rate-limit.ts'

export interface AssistantGuardOptions {
  /** The assistant message endpoints also count per key per month and per IP per day; search and page do not. */
  countKeyAndIp: boolean
}

/** CORS → assistant key for `:domain` → rate limits: the chain every assistant-key route shares. */
export function assistantGuard(ctx: DocentContext, { countKeyAndIp }: AssistantGuardOptions): MiddlewareHandler {
  const { limits } = ctx.config
  return every(
    projectCors(ctx.projects),
    assistantAuth(ctx),
    rateLimit({
      store: ctx.store,
      now: ctx.now,
      rules: (c) => {
        const { key } = c.get('auth')
        const rules: RateRule[] = [
          { name: 'org-hour', limit: limits.organizationPerHour, window: 'hour', key: () => key.organization },
        ]
        if (countKeyAndIp) {
          rules.unshift({ name: 'key-month', limit: limits.assistantKeyPerMonth, window: 'month', key: () => key.id })
          rules.push({ name: 'ip-day', limit: limits.ipPerDay, window: 'day', key: (c) => clientIp(c, ctx.config.trustProxy) })
        }
        return rules
      },
    }),
  )
}

/** Admin key of the project's organization. */
export const adminGuard = (ctx: DocentContext): MiddlewareHandler => adminAuth(ctx)

/** Admin key, then the per-project hourly limit on agent job creations and follow-ups. */
export function agentWriteGuard(ctx: DocentContext): MiddlewareHandler {
  return every(
    adminAuth(ctx),
    rateLimit({
      store: ctx.store,
      now: ctx.now,
      rules: (c) => [
        { name: 'agent-hour', limit: ctx.config.limits.agentPerProjectPerHour, window: 'hour', key: () => c.get('auth').project.id },
      ],
    }),
  )
}
