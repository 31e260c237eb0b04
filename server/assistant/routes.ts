import { Hono } from 'hono'
import type { DocentContext } from '../context.ts'

// Not built yet: mounted by app.ts so the app compiles while this feature is written.
export function assistantRoutes(_ctx: DocentContext): Hono {
  return new Hono()
}
