import { z } from 'zod'
import { AgentEventList, AgentJob, AgentJobList, PromptBody } from '../shared/agent.ts'
import { AssistantV1Body, AssistantV2Body, FeedbackBody, ThreadDetail, ThreadList } from '../shared/assistant.ts'
import { ErrorBody } from '../shared/errors.ts'
import { PageBody, PageResponse, SearchBody, SearchResponse } from '../shared/search.ts'

type Operation = {
  method: 'get' | 'post'
  path: string
  summary: string
  security: 'admin' | 'assistant' | null
  body?: z.ZodType
  response?: z.ZodType
  responseType?: string
  status?: number
}

const operations: Operation[] = [
  { method: 'get', path: '/healthz', summary: 'Liveness', security: null },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job',
    summary: 'Create an agent job',
    security: 'admin',
    body: PromptBody,
    response: AgentJob,
  },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/message',
    summary: 'Send a follow-up to a job',
    security: 'admin',
    body: PromptBody,
    response: AgentJob,
  },
  { method: 'get', path: '/v2/agent/{projectId}/job/{id}', summary: 'Get a job', security: 'admin', response: AgentJob },
  { method: 'get', path: '/v2/agent/{projectId}/jobs', summary: 'List jobs, newest first', security: 'admin', response: AgentJobList },
  {
    method: 'post',
    path: '/v2/agent/{projectId}/job/{id}/archive',
    summary: 'Archive a job (cancels its run)',
    security: 'admin',
    response: AgentJob,
  },
  {
    method: 'get',
    path: '/v2/agent/{projectId}/job/{id}/events',
    summary: 'What the agent did',
    security: 'admin',
    response: AgentEventList,
  },
  {
    method: 'post',
    path: '/discovery/v1/assistant/{domain}/message',
    summary: 'Answer (AI SDK v4 data stream; deprecated)',
    security: 'assistant',
    body: AssistantV1Body,
    responseType: 'text/plain',
  },
  {
    method: 'post',
    path: '/discovery/v2/assistant/{domain}/message',
    summary: 'Answer (AI SDK UI message stream)',
    security: 'assistant',
    body: AssistantV2Body,
    responseType: 'text/event-stream',
  },
  {
    method: 'post',
    path: '/discovery/v1/assistant/{domain}/feedback',
    summary: 'Rate an answer',
    security: 'assistant',
    body: FeedbackBody,
    status: 204,
  },
  {
    method: 'post',
    path: '/discovery/v1/search/{domain}',
    summary: 'Search the docs',
    security: 'assistant',
    body: SearchBody,
    response: SearchResponse,
  },
  {
    method: 'post',
    path: '/discovery/v1/page/{domain}',
    summary: 'Get a page as markdown',
    security: 'assistant',
    body: PageBody,
    response: PageResponse,
  },
  { method: 'get', path: '/v2/assistant/{projectId}/threads', summary: 'List assistant threads', security: 'admin', response: ThreadList },
  {
    method: 'get',
    path: '/v2/assistant/{projectId}/threads/{threadId}',
    summary: 'Get a thread',
    security: 'admin',
    response: ThreadDetail,
  },
]

const components: Record<string, unknown> = {}

/** JSON Schema of a shared zod schema; named schemas (`.meta({ id })`) land in components and are referenced. */
function schema(type: z.ZodType, io: 'input' | 'output'): unknown {
  const generated = z.toJSONSchema(type, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>
  const { definitions, ...rest } = generated as { definitions?: Record<string, unknown> }
  const suffix = io === 'input' ? 'Input' : ''
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value).replace(/"#\/definitions\/([^"]+)"/g, (_, name) => `"#/components/schemas/${name}${suffix}"`))
  for (const [name, definition] of Object.entries(definitions ?? {})) components[`${name}${suffix}`] = rewrite(definition)
  return rewrite(rest)
}

let cached: unknown
/** OpenAPI 3 document generated from the shared zod schemas, so it cannot drift from the validation. */
export function openApiDocument(): unknown {
  if (cached) return cached
  const paths: Record<string, Record<string, unknown>> = {}
  for (const op of operations) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }))
    const ok = op.status ?? 200
    paths[op.path] ??= {}
    paths[op.path]![op.method] = {
      summary: op.summary,
      ...(op.security ? { security: [{ [op.security]: [] }] } : {}),
      parameters: params,
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: schema(op.body, 'input') } } } } : {}),
      responses: {
        [ok]: op.response
          ? { description: 'OK', content: { 'application/json': { schema: schema(op.response, 'output') } } }
          : { description: 'OK', ...(op.responseType ? { content: { [op.responseType]: {} } } : {}) },
        default: { description: 'Error', content: { 'application/json': { schema: schema(ErrorBody, 'output') } } },
      },
    }
  }
  cached = {
    openapi: '3.0.3',
    info: { title: 'Docent API', version: '1' },
    components: {
      securitySchemes: {
        admin: { type: 'http', scheme: 'bearer', description: 'Admin key (svc_...)' },
        assistant: { type: 'http', scheme: 'bearer', description: 'Assistant key (svc_dsc_...)' },
      },
      schemas: components,
    },
    paths,
  }
  return cached
}
