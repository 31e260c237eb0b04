import { Hono } from 'hono'
import type { DocentContext } from '../context.ts'

// Not built yet: replaced by the feature (review pages of the local git host (/review/{jobId})).
export function reviewRoutes(_ctx: DocentContext): Hono {
  return new Hono()
}
