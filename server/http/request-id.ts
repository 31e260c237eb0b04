import type { MiddlewareHandler } from 'hono'

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string
  }
}

/** Gives every request an id, echoed as `X-Request-Id`, so a 500's message can be found in the logs. */
export const requestId = (): MiddlewareHandler => async (c, next) => {
  const id = crypto.randomUUID()
  c.set('requestId', id)
  await next()
  c.header('x-request-id', id)
}
