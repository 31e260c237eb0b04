import { type Context, Hono } from 'hono'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { assistantAuth } from '../http/auth.ts'
import { clientIp } from '../http/client-ip.ts'
import { ApiError } from '../http/errors.ts'
import { rateLimit } from '../http/rate-limit.ts'
import { projectLinks, serverBase, siteProject } from '../llms/links.ts'
import { loadCorpus } from '../llms/load-corpus.ts'
import { mcpCorsHeaders, preflightHeaders } from './cors.ts'
import { plainError, rpcErrorResponse } from './rpc-error.ts'

/**
 * `/mcp/{domain}`: the project's docs as an MCP server over Streamable HTTP. Stateless: every POST gets a fresh
 * server and transport over the current corpus, so any instance can answer any request and nothing is kept.
 * Auth: the project's assistant key, or none when the project sets `mcp.public`. Limits: the same per-organization
 * and per-IP counters as the assistant endpoints.
 */
export function mcpRoutes(ctx: DocentContext): Hono {
  const app = new Hono()
  const { limits, trustProxy } = ctx.config
  // The counters the assistant endpoints use too (same rule names), so MCP traffic shares their budget.
  const limiterFor = (project: ProjectConfig) =>
    rateLimit({
      store: ctx.store,
      now: ctx.now,
      rules: () => [
        { name: 'org-hour', limit: limits.organizationPerHour, window: 'hour', key: () => project.organization },
        { name: 'ip-day', limit: limits.ipPerDay, window: 'day', key: (c) => clientIp(c, trustProxy) },
      ],
    })
  const checkKey = assistantAuth(ctx)

  const serve = async (c: Context, project: ProjectConfig): Promise<Response> => {
    const corpus = await loadCorpus(ctx, project, 'MCP')
    const isSite = project === siteProject(ctx.projects)
    const links = projectLinks(project, serverBase(ctx.config, c.req.url), { atRoot: isSite, isSite })
    // The MCP SDK is loaded on the first MCP request: it was a third of the server's import time at start-up.
    const [{ docsMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('./docs-server.ts'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ])
    const server = docsMcpServer({ corpus, links })
    // JSON responses rather than SSE: every tool answers at once, and the request ends with the answer.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw)
    } finally {
      await server.close()
    }
  }

  const handle = async (c: Context) => {
    const project = ctx.projects.byDomain(c.req.param('domain'))
    if (!project) throw new ApiError(404, `no MCP server for domain "${c.req.param('domain')}"`)
    const cors = mcpCorsHeaders(project, c.req.header('origin'), new URL(c.req.url).origin)
    if (!cors) throw new ApiError(403, `origin ${c.req.header('origin')} is not allowed for this project`)
    if (c.req.method === 'OPTIONS') {
      return new Response(null, { status: 204, headers: { ...cors, ...preflightHeaders(c.req.header('access-control-request-headers')) } })
    }
    // Set before anything can fail, so a browser client can read a 401 or 429 too.
    for (const [name, value] of Object.entries(cors)) c.header(name, value)
    // Stateless: no session to open a server-to-client stream on (GET) or to end (DELETE); clients expect 405.
    if (c.req.method !== 'POST') {
      throw new ApiError(405, 'this MCP server is stateless: send JSON-RPC messages with POST', { allow: 'POST, OPTIONS' })
    }
    if (!project.mcp.public || c.req.header('authorization') !== undefined) await checkKey(c, async () => {})
    try {
      await limiterFor(project)(c, async () => {
        c.res = await plainError(await serve(c, project))
      })
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) return rpcErrorResponse(error, cors)
      throw error
    }
    return c.res
  }
  app.all('/mcp/:domain', handle)
  // Client configs often end the URL with a slash.
  app.all('/mcp/:domain/', handle)
  return app
}
