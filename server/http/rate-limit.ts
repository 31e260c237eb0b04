import type { MiddlewareHandler } from 'hono'
import type { Store } from '../store/types.ts'
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
 * Counts the request against every rule with the store's atomic counters and refuses it with 429 when any is over.
 * The `RateLimit-*` headers describe the rule closest to its limit.
 */
export const rateLimit =
  ({ store, now, rules }: RateLimitOptions): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const at = now()
    let tightest: { rule: RateRule; remaining: number; reset: number } | undefined
    let exceeded: typeof tightest
    for (const rule of rules(c)) {
      const { start, end } = windowOf(rule.window, at)
      const count = await store.incrementCounter(`rl:${rule.name}:${rule.key(c)}:${start.toISOString()}`, end)
      const remaining = Math.max(0, rule.limit - count)
      const reset = Math.max(1, Math.ceil((end.getTime() - at.getTime()) / 1000))
      const entry = { rule, remaining, reset }
      if (!tightest || remaining < tightest.remaining) tightest = entry
      if (count > rule.limit && !exceeded) exceeded = entry
    }
    const headersOf = (entry: NonNullable<typeof tightest>) => ({
      'ratelimit-limit': String(entry.rule.limit),
      'ratelimit-remaining': String(entry.remaining),
      'ratelimit-reset': String(entry.reset),
    })
    if (exceeded) {
      throw new ApiError(
        429,
        `rate limit exceeded: ${exceeded.rule.limit} requests per ${exceeded.rule.window} (${exceeded.rule.name}); retry in ${exceeded.reset} s`,
        {
          ...headersOf(exceeded),
          'retry-after': String(exceeded.reset),
        },
      )
    }
    await next()
    if (tightest) {
      for (const [name, value] of Object.entries(headersOf(tightest))) c.res.headers.set(name, value)
    }
  }
