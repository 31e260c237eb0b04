import { Hono } from 'hono'
import type { DocentContext } from '../context.ts'

// Not built yet: replaced by the feature (llms.txt, llms-full.txt and page markdown (.md)).
export function llmsRoutes(_ctx: DocentContext): Hono {
  return new Hono()
}
