import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { docsAuth } from '../http/auth.ts'
import { readBodyText } from '../http/body-limit.ts'
import { quotaRules } from '../http/quotas.ts'
import { DocentError } from '../../shared/errors.ts'
import { ApiError } from '../http/errors.ts'
import { type AppContext, type Guard, RATE_LIMIT_HEADERS, type Route, route } from '../http/route.ts'
import { rateLimiter } from '../http/rate-limit.ts'
import { projectLinks, serverBase, siteProject } from '../llms/links.ts'
import { docsNameOf } from '../search/docs-name.ts'
import { loadCorpus } from '../search/load-corpus.ts'
import type { SearchHit } from '../search/types.ts'
import { mcpCorsHeaders, preflightHeaders } from './cors.ts'
import { invalidParams, plainError, rpcErrorResponse } from './rpc-error.ts'

/**
 * `/mcp/{domain}`: the project's docs as an MCP server over Streamable HTTP. Stateless: every POST gets a fresh
 * server and transport over the current corpus, so any instance can answer any request and nothing is kept.
 * Auth: the project's assistant key, or none when its docs are public (`docs.public`). Limits: the `docs` quota, as
 * the search and page endpoints.
 */
export function mcpRoutes(ctx: DocentContext): Route[] {
  // The `docs` quota, as search and page: MCP reads the same docs.
  const admitFor = (project: ProjectConfig) =>
    rateLimiter({
      store: ctx.store,
      now: ctx.now,
      rules: (c) => quotaRules(ctx.config, 'docs', { organization: project.organization, key: c.get('docsAuth').key }),
    })

  const serve = async (c: AppContext, project: ProjectConfig): Promise<Response> => {
    const corpus = await loadCorpus(ctx, project, 'MCP')
    const isSite = project === siteProject(ctx.projects)
    const links = projectLinks(project, serverBase(ctx.config, c.req.url), { atRoot: isSite, isSite })
    // The MCP SDK is loaded on the first MCP request: it was a third of the server's import time at start-up.
    const [{ docsMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
      import('./docs-server.ts'),
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    ])
    const onSearch = (query: string, hits: SearchHit[]) =>
      ctx.analytics.recorder.search({
        projectId: project.id,
        query,
        resultCount: hits.length,
        topScore: hits[0]?.score ?? null,
        caller: 'other',
        origin: 'mcp',
        at: ctx.now(),
      })
    const server = docsMcpServer({ corpus, docsName: docsNameOf(corpus, project), links, onSearch })
    // JSON responses rather than SSE: every tool answers at once, and the request ends with the answer.
    const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
    await server.connect(transport)
    try {
      return await transport.handleRequest(c.req.raw)
    } finally {
      await server.close()
    }
  }

  /** The project of `{domain}` and its CORS grant; refuses unknown domains (404) and origins it does not allow (403). */
  const projectAndCors = (c: AppContext) => {
    const project = ctx.projects.byDomain(c.req.param('domain'))
    if (!project) throw new DocentError('not_found', `no MCP server for domain "${c.req.param('domain')}"`)
    const cors = mcpCorsHeaders(project, c.req.header('origin'), new URL(c.req.url).origin)
    if (!cors) throw new DocentError('forbidden', `origin ${c.req.header('origin')} is not allowed for this project`)
    // Set before anything can fail, so a browser client can read a 401, 405 or 429 too.
    for (const [name, value] of Object.entries(cors)) c.header(name, value)
    return { project, cors }
  }

  const guard: Guard<null> = {
    // The assistant key, or none when the project's docs are public.
    security: ['assistant', 'none'],
    errors: {
      401: 'no valid assistant key, and the docs are not public',
      403: 'a key for another domain, or an Origin that is not allowed',
      404: 'no project with this domain',
      406: 'the Accept header does not allow application/json',
      429: 'a rate limit is exhausted (a JSON-RPC error body)',
    },
    headers: RATE_LIMIT_HEADERS,
    preflight: async (c) => {
      const { cors } = projectAndCors(c)
      return new Response(null, { status: 204, headers: { ...cors, ...preflightHeaders(c.req.header('access-control-request-headers')) } })
    },
    middleware: [],
    auth: () => null,
  }

  const stateless = (method: 'get' | 'delete') =>
    route({
      method,
      path: '/mcp/{domain}',
      tag: 'mcp',
      summary: method === 'get' ? 'No server-to-client stream: the server is stateless' : 'No session to end: the server is stateless',
      guard: { ...guard, errors: { 404: guard.errors[404]!, 403: guard.errors[403]! }, headers: undefined },
      responses: { 405: { description: 'always: send JSON-RPC messages with POST' } },
      handler: (c) => {
        projectAndCors(c)
        throw new ApiError(405, 'this MCP server is stateless: send JSON-RPC messages with POST', { allow: 'POST, OPTIONS' })
      },
    })

  return [
    route({
      method: 'post',
      path: '/mcp/{domain}',
      tag: 'mcp',
      summary: "The project's docs as an MCP server (Streamable HTTP, stateless, JSON responses)",
      description: 'Tools `search_docs` and `get_page`; every page as a resource.',
      guard,
      responses: {
        200: { description: 'the JSON-RPC response', content: { type: 'application/json', description: 'JSON-RPC 2.0' } },
        202: { description: 'a notification or response was accepted' },
        400: { description: 'the body is not JSON-RPC, or is a batch (one message per request)' },
        413: { description: 'the body is larger than the limit (1 MiB)' },
        415: { description: 'the body is not JSON' },
      },
      handler: async (c) => {
        const { project, cors } = projectAndCors(c)
        await docsAuth(ctx, () => project)(c, async () => {})
        // A body that is not JSON is the transport's 400 and spends no budget, like every refused request.
        const request = c.req.raw
        const text = await readBodyText(request, () => request.clone().text()).catch((error: unknown) => {
          if (error instanceof ApiError) throw error // the body did not arrive in time
          return ''
        })
        let parsable = true
        let batch = false
        try {
          batch = Array.isArray(JSON.parse(text))
        } catch {
          parsable = false
        }
        // A JSON-RPC batch would be admitted once and run every search it holds (50 for one unit of the limit). MCP
        // dropped batches (protocol 2025-06-18), and no SDK client sends them.
        if (batch) {
          throw new ApiError(400, 'JSON-RPC batches are not supported: send one message per request')
        }
        let limitHeaders: Record<string, string> = {}
        if (parsable) {
          try {
            limitHeaders = await admitFor(project)(c)
          } catch (error) {
            if (error instanceof ApiError && error.status === 429) return rpcErrorResponse(error, cors)
            throw error
          }
        }
        // The transport's own Response: the grant set on the context earlier is not on it.
        const response = await invalidParams(await plainError(await serve(c, project)))
        for (const [name, value] of Object.entries({ ...limitHeaders, ...cors })) {
          if (name === 'vary') response.headers.append(name, value)
          else response.headers.set(name, value)
        }
        return response
      },
    }),
    stateless('get'),
    stateless('delete'),
  ]
}
