import { docsArePublic, type ProjectConfig } from '../config.ts'

const ALLOW_HEADERS = 'authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id'
const EXPOSE_HEADERS =
  'mcp-session-id, mcp-protocol-version, www-authenticate, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset'

/**
 * The CORS grant for a browser-based MCP client: any origin when the docs are public, else the project's `allowedOrigins`.
 * `null` when the Origin is present and not allowed (the MCP spec asks servers to refuse those: DNS rebinding);
 * an empty grant when the request has no Origin (not a browser) or comes from Docent's own pages.
 */
export function mcpCorsHeaders(project: ProjectConfig, origin: string | undefined, ownOrigin: string): Record<string, string> | null {
  if (origin === undefined) return {}
  const anyOrigin = docsArePublic(project) || project.allowedOrigins.includes('*')
  if (!anyOrigin && !project.allowedOrigins.includes(origin)) return origin === ownOrigin ? {} : null
  return {
    'access-control-allow-origin': anyOrigin ? '*' : origin,
    'access-control-expose-headers': EXPOSE_HEADERS,
    ...(anyOrigin ? {} : { vary: 'Origin' }),
  }
}

export function preflightHeaders(requested: string | undefined): Record<string, string> {
  return {
    'access-control-allow-methods': 'POST, GET, DELETE, OPTIONS',
    'access-control-allow-headers': requested ?? ALLOW_HEADERS,
    'access-control-max-age': '600',
  }
}
