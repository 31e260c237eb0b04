import { z } from 'zod'
import { ErrorBody } from '../shared/errors.ts'
import type { ResponseDoc, Route } from './http/route.ts'

const SECURITY_SCHEMES = {
  admin: { type: 'http', scheme: 'bearer', description: 'Admin key (svc_...) of the organization that owns the project' },
  assistant: { type: 'http', scheme: 'bearer', description: 'Assistant key (svc_dsc_...) made for the domain' },
  console: {
    type: 'apiKey',
    in: 'cookie',
    name: 'docent_session',
    description: 'Console session (POST /console/session); state-changing requests also send the X-Docent-Console header',
  },
}

/**
 * The OpenAPI 3.1 document of the declared routes: paths, parameters, request schemas, every status a route can answer
 * with its headers, generated from the same zod schemas that validate requests, so it cannot drift from them.
 */
export function openApiDocument(routes: readonly Route[]): unknown {
  const components: Record<string, unknown> = {}
  const schema = (type: z.ZodType, io: 'input' | 'output'): unknown => jsonSchema(type, io, components)
  const paths: Record<string, Record<string, unknown>> = {}
  for (const declared of routes) {
    const parameters: unknown[] = Object.entries(declared.params).map(([name, description]) => ({
      name,
      in: 'path',
      required: true,
      description,
      schema: { type: 'string' },
    }))
    if (declared.query) parameters.push(...queryParameters(declared.query, schema))
    paths[declared.path] ??= {}
    paths[declared.path]![declared.method] = {
      operationId: operationId(declared),
      summary: declared.summary,
      ...(declared.description ? { description: declared.description } : {}),
      tags: [declared.tag],
      security: declared.security.map((name) => (name === 'none' ? {} : { [name]: [] })),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(declared.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: schema(declared.body, 'input') } } } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(declared.responses).map(([status, response]) => [status, responseObject(Number(status), response, schema)]),
      ),
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Docent API',
      version: '1',
      description: 'Errors are `{"error": "<message>", "code": "<stable code>"}`; a validation error names the field.',
    },
    components: { securitySchemes: SECURITY_SCHEMES, schemas: components },
    paths,
  }
}

function responseObject(status: number, response: ResponseDoc, schema: (type: z.ZodType, io: 'output') => unknown): unknown {
  const headers =
    response.headers &&
    Object.fromEntries(
      Object.entries(response.headers).map(([name, header]) => [
        name,
        { description: header.description, schema: header.schema ?? { type: 'string' } },
      ]),
    )
  // A route may answer JSON and, when asked (Accept), a stream of the same things: both are listed.
  const json = response.schema ? { 'application/json': { schema: schema(response.schema, 'output') } } : undefined
  const other = response.content
    ? {
        [response.content.type]: {
          schema: {
            ...(response.content.type.includes('json') ? {} : { type: 'string' }),
            ...(response.content.description ? { description: response.content.description } : {}),
          },
          // OpenAPI 3.2's `itemSchema` says this for streams; 3.1 (what validators read today) takes it as an extension.
          ...(response.content.schema ? { 'x-item-schema': schema(response.content.schema, 'output') } : {}),
        },
      }
    : undefined
  // Other forms of the same data a client may ask for (`?format=csv`).
  const alternatives = response.alternatives?.length
    ? Object.fromEntries(response.alternatives.map(({ type, description }) => [type, { schema: { type: 'string', description } }]))
    : undefined
  const content =
    json || other || alternatives
      ? { ...json, ...other, ...alternatives }
      : status >= 400
        ? { 'application/json': { schema: schema(ErrorBody, 'output') } }
        : undefined
  return { description: response.description, ...(headers ? { headers } : {}), ...(content ? { content } : {}) }
}

/** Each property of a query schema as a query parameter. */
function queryParameters(query: z.ZodType, schema: (type: z.ZodType, io: 'input') => unknown): unknown[] {
  const object = schema(query, 'input') as { properties?: Record<string, unknown>; required?: string[] }
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: object.required?.includes(name) ?? false,
    schema: property,
  }))
}

/** JSON Schema (2020-12, as OpenAPI 3.1 reads it) of a zod schema; named ones (`.meta({ id })`) become components. */
function jsonSchema(type: z.ZodType, io: 'input' | 'output', components: Record<string, unknown>): unknown {
  const generated = z.toJSONSchema(type, { io, unrepresentable: 'any', target: 'draft-2020-12', reused: 'inline' }) as Record<
    string,
    unknown
  >
  const { $defs, $schema: _, id, ...rest } = generated as { $defs?: Record<string, unknown>; $schema?: string; id?: string }
  const suffix = io === 'input' ? 'Input' : ''
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([^"]+)"/g, (_, name) => `"#/components/schemas/${name}${suffix}"`))
  for (const [name, definition] of Object.entries($defs ?? {})) components[`${name}${suffix}`] = rewrite(definition)
  if (typeof id === 'string') {
    components[`${id}${suffix}`] = rewrite(rest)
    return { $ref: `#/components/schemas/${id}${suffix}` }
  }
  return rewrite(rest)
}

/** `getV2AgentJobEvents`; a path that ends in a parameter adds it (`getV2AssistantThreadsByThreadId`). */
function operationId(declared: Route): string {
  const parts = declared.path.split('/').filter(Boolean)
  const words = parts
    .filter((part) => !part.startsWith('{'))
    .map((part) => part.replace(/[^a-zA-Z0-9]+(.)?/g, (_, next: string | undefined) => (next ? next.toUpperCase() : '')))
  const last = parts.at(-1)
  if (last?.startsWith('{')) words.push(`by${last.slice(1, -1)}`)
  return [declared.method, ...words].map((word, index) => (index === 0 ? word : word[0]!.toUpperCase() + word.slice(1))).join('')
}
