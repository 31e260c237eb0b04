import type { Context } from 'hono'

/** What the runtime entrypoints pass as Hono's `env`: the peer address of the connection. */
export interface ConnectionEnv {
  ip?: string
}

/** The caller's IP: from the connection, or from X-Forwarded-For only when the proxy in front is trusted. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return (c.env as ConnectionEnv | undefined)?.ip ?? 'unknown'
}
