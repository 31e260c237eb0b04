import type { Context, Hono, MiddlewareHandler } from 'hono'
import type { z } from 'zod'
import type { AdminIdentity, AuthInfo, DocsAuthInfo } from './auth.ts'
import { readJson, readQuery } from './validate.ts'

/** The Hono environment of Docent's app: what middleware put on the context, typed here instead of globally. */
export interface AppEnv {
  Variables: {
    requestId: string
    /** Set by the auth guards; handlers receive it typed through `RouteInput.auth`, not by reading it. */
    auth: AuthInfo
    /** Set by the organization guard (routes about the organization, not one project). */
    identity: AdminIdentity
    /** Set by the docs guard: the key may be absent on public docs. */
    docsAuth: DocsAuthInfo
  }
}

export type AppContext = Context<AppEnv>
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface HeaderDoc {
  description: string
  schema?: { type: 'string' | 'integer' }
}

export interface ResponseDoc {
  description: string
  /** Schema of a JSON body. */
  schema?: z.ZodType
  /** A body that is not JSON (`text/event-stream`, `text/markdown`, `text/html`), with the schema of its items if any. */
  content?: { type: string; schema?: z.ZodType; description?: string }
  /** Other media types the same status answers with when asked (CSV and NDJSON exports of a JSON list). */
  alternatives?: Array<{ type: string; description: string }>
  headers?: Record<string, HeaderDoc>
}

/**
 * Who may call a route and what it costs: the middleware chain (CORS, key check, rate limits), what it gives the
 * handler, and what it documents (security scheme, the error statuses and headers it can answer with).
 */
export interface Guard<Auth> {
  /** OpenAPI security requirement names (alternatives); empty for a public route. */
  security: string[]
  /** Error statuses the guard itself answers, with why. */
  errors: Record<number, string>
  /** Headers the guard adds to successful responses (rate-limit state). */
  headers?: Record<string, HeaderDoc>
  middleware: MiddlewareHandler<AppEnv>[]
  /**
   * Admits the request against the rate limits, after the body and query are validated (a request refused for its input
   * spends no budget); returns the `RateLimit-*` headers for the response.
   */
  admit?(c: AppContext): Promise<Record<string, string>>
  /** Answers the CORS preflight of the route's path, when browsers call it cross-origin. */
  preflight?: MiddlewareHandler<AppEnv>
  auth(c: AppContext): Auth
}

export interface RouteInput<Auth, Body, Query> {
  auth: Auth
  body: Body
  query: Query
}

export interface RouteDeclaration<Auth, BodySchema extends z.ZodType, QuerySchema extends z.ZodType> {
  method: HttpMethod
  /** OpenAPI path template: `/v2/agent/{projectId}/job/{id}`. */
  path: string
  /** The Hono path, when the template cannot say it (a parameter spanning slashes). */
  honoPath?: string
  summary: string
  description?: string
  /** The API area, for grouping in the OpenAPI document and the site. */
  tag: string
  guard: Guard<Auth>
  /** Path parameters' meanings, by name. */
  params?: Record<string, string>
  body?: BodySchema
  query?: QuerySchema
  /** The success response(s) and the route's own errors (404, 409...); guard and validation errors are added. */
  responses: Record<number, ResponseDoc>
  /**
   * Checks that cost nothing and refuse a request that could change nothing (no such job, an archived one, no agent),
   * run before the rate limits count it: a limit of job creations is not spent by follow-ups to jobs that do not exist.
   */
  precheck?(c: AppContext, input: RouteInput<Auth, z.output<BodySchema>, z.output<QuerySchema>>): Promise<unknown>
  handler(c: AppContext, input: RouteInput<Auth, z.output<BodySchema>, z.output<QuerySchema>>): Response | Promise<Response>
}

/** A declared route with its types erased: what the app, the OpenAPI document and the 405 handling read. */
export interface Route {
  method: HttpMethod
  path: string
  summary: string
  description?: string
  tag: string
  security: string[]
  params: Record<string, string>
  body?: z.ZodType
  query?: z.ZodType
  /** Every status the route can answer, success and errors, documented. */
  responses: Record<number, ResponseDoc>
  /** Registers the route (and its preflight) on a Hono app. */
  register(app: Hono<AppEnv>): void
}

const VALIDATION_ERRORS: Record<number, string> = {
  400: 'the body or query is invalid (the message names the field)',
}
const BODY_ERRORS: Record<number, string> = {
  ...VALIDATION_ERRORS,
  413: 'the body is larger than the limit (1 MiB)',
  415: 'the body is not JSON',
}

/**
 * Declares a route once: method, path, guard, request schemas and responses. The same declaration registers the
 * handler on Hono, generates the OpenAPI operation, answers 405 for other methods on its path and tells the site
 * which paths are the API's.
 */
export function route<Auth, BodySchema extends z.ZodType = z.ZodNever, QuerySchema extends z.ZodType = z.ZodNever>(
  declaration: RouteDeclaration<Auth, BodySchema, QuerySchema>,
): Route {
  const { method, path, guard, body, query } = declaration
  const errors: Record<number, string> = {
    ...guard.errors,
    ...(body ? BODY_ERRORS : {}),
    ...(query ? VALIDATION_ERRORS : {}),
    500: 'unexpected error (logged with the request id)',
  }
  const responses: Record<number, ResponseDoc> = {}
  for (const [status, description] of Object.entries(errors)) responses[Number(status)] = { description }
  Object.assign(responses, declaration.responses)
  for (const [status, response] of Object.entries(responses)) {
    const code = Number(status)
    if (code < 300 && guard.headers) response.headers = { ...guard.headers, ...response.headers }
    if (code === 429) response.headers = { ...RATE_LIMIT_HEADERS, 'Retry-After': RETRY_AFTER, ...response.headers }
  }
  const honoPath = declaration.honoPath ?? path.replace(/\{(\w+)\}/g, ':$1')
  return {
    method,
    path,
    summary: declaration.summary,
    description: declaration.description,
    tag: declaration.tag,
    security: guard.security,
    params: Object.fromEntries([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, declaration.params?.[name!] ?? name!])),
    body,
    query,
    responses,
    register(app) {
      if (guard.preflight) app.options(honoPath, guard.preflight)
      const handlers: MiddlewareHandler<AppEnv>[] = [...guard.middleware]
      app.on(method.toUpperCase(), [honoPath], ...handlers, async (c: AppContext) => {
        const input = {
          auth: guard.auth(c),
          body: body ? await readJson(c, body) : undefined,
          query: query ? readQuery(c, query) : undefined,
        } as RouteInput<Auth, z.output<BodySchema>, z.output<QuerySchema>>
        await declaration.precheck?.(c, input)
        const limitHeaders = guard.admit ? await guard.admit(c) : {}
        const response = await declaration.handler(c, input)
        for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value)
        return response
      })
    },
  }
}

export const RETRY_AFTER: HeaderDoc = { description: 'seconds until the request may be retried', schema: { type: 'integer' } }
export const RATE_LIMIT_HEADERS: Record<string, HeaderDoc> = {
  'RateLimit-Limit': { description: 'requests allowed in the window of the tightest limit', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'requests left in that window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'seconds until that window resets', schema: { type: 'integer' } },
}

/** A route anyone may call. */
export const publicGuard: Guard<null> = { security: [], errors: {}, middleware: [], auth: () => null }

/** The first path segments of the declared routes (`/discovery/`, `/v2/`, `/openapi.json`): the API's part of the URL space. */
export function apiPrefixes(routes: readonly Route[]): string[] {
  const prefixes = new Set<string>()
  for (const declared of routes) {
    const [, first = '', second] = declared.path.split('/')
    // `/{pagePath}.md` and the like are catch-alls of the site, not a prefix of their own.
    if (first.startsWith('{')) continue
    prefixes.add(second === undefined ? `/${first}` : `/${first}/`)
  }
  return [...prefixes]
}
