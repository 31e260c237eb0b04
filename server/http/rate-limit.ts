import type { MiddlewareHandler } from 'hono'
import type { CounterLimit, Store } from '../store/types.ts'
import { ApiError } from './errors.ts'
import type { AppContext, AppEnv } from './route.ts'

export type Window = 'month' | 'hour' | 'day'

/** One fixed-window limit: at most `limit` requests per `window` for each value of `key(c)`. */
export interface RateRule {
  name: string
  limit: number
  window: Window
  key: (c: AppContext) => string
}

export interface RateLimitOptions {
  store: Store
  now: () => Date
  /** The rules for this request (several may apply: per key, per organization, per IP). */
  rules: (c: AppContext) => RateRule[]
}

/** Start and end of the fixed window (UTC calendar month, hour or day) that contains `now`. */
export function windowOf(window: Window, now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear()
  const m = now.getUTCMonth()
  const d = now.getUTCDate()
  const h = now.getUTCHours()
  switch (window) {
    case 'month':
      return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) }
    case 'day':
      return { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) }
    case 'hour':
      return { start: new Date(Date.UTC(y, m, d, h)), end: new Date(Date.UTC(y, m, d, h + 1)) }
  }
}

/**
 * The rule of agent job creations and follow-ups per project and hour (`agentWriteGuard`). An automation run is an agent
 * job too, and counts on the same store counter (server/automations/start-run.ts): the API and the runs of every
 * instance share one budget.
 */
export const AGENT_HOUR_RULE = 'agent-hour'

/**
 * The store counter of `rule` for `subject` in the window that contains `at`: what a request admitted under the rule
 * counts on, and what work started outside a request (an automation run) counts on to share the request's budget.
 */
export function counterOf(rule: Pick<RateRule, 'name' | 'limit' | 'window'>, subject: string, at: Date): CounterLimit {
  const { start, end } = windowOf(rule.window, at)
  return { key: `rl:${rule.name}:${subject}:${start.toISOString()}`, limit: rule.limit, expiresAt: end }
}

/**
 * Admits the request against every rule with the store's atomic `admit`: when every rule has room, each counts it;
 * when any is full, none does and the request is refused with 429 (so refusals never spend anyone's budget). Returns the
 * `RateLimit-*` headers of the rule closest to its limit, for the response.
 */
export function rateLimiter({ store, now, rules }: RateLimitOptions): (c: AppContext) => Promise<Record<string, string>> {
  return async (c) => {
    const at = now()
    const applying = rules(c)
    if (applying.length === 0) return {}
    const counters = applying.map((rule) => counterOf(rule, rule.key(c), at))
    const { admitted, counts } = await store.admit(counters, at)
    const states = applying.map((rule, i) => ({
      rule,
      remaining: Math.max(0, rule.limit - counts[i]!),
      reset: Math.max(1, Math.ceil((counters[i]!.expiresAt.getTime() - at.getTime()) / 1000)),
    }))
    const headersOf = (state: (typeof states)[number]) => ({
      'ratelimit-limit': String(state.rule.limit),
      'ratelimit-remaining': String(state.remaining),
      'ratelimit-reset': String(state.reset),
    })
    if (!admitted) {
      // Of the full limits, the one that frees last: the request is refused until every one has room again.
      const full = states.filter((state) => state.remaining === 0).reduce((latest, state) => (state.reset > latest.reset ? state : latest))
      throw new ApiError(
        429,
        `rate limit exceeded: ${full.rule.limit} requests per ${full.rule.window} (${full.rule.name}); retry in ${full.reset} s`,
        { ...headersOf(full), 'retry-after': String(full.reset) },
      )
    }
    return headersOf(states.reduce((tightest, state) => (state.remaining < tightest.remaining ? state : tightest)))
  }
}

/** `rateLimiter` as a middleware: admits before the handler and puts the headers on its response. */
export const rateLimit = (options: RateLimitOptions): MiddlewareHandler<AppEnv> => {
  const admit = rateLimiter(options)
  return async (c, next) => {
    const headers = await admit(c)
    await next()
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value)
  }
}
