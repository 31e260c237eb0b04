import { Hono } from 'hono'
import type { DocentContext } from '../context.ts'

// Not built yet: replaced by the feature (MCP server per project at /mcp/{domain}).
export function mcpRoutes(_ctx: DocentContext): Hono {
  return new Hono()
}
