import type { ApiError } from '../http/errors.ts'

/** In the JSON-RPC range reserved for implementation-defined server errors. */
const RATE_LIMITED = -32029

/**
 * The rate-limit refusal as the MCP Streamable HTTP transport words one: status 429 with Retry-After and
 * `RateLimit-*`, and a JSON-RPC error response without an id as the body. (The SDK client raises
 * `StreamableHTTPError` with `code` 429 and this body in its message.)
 */
export function rpcErrorResponse(error: ApiError, extraHeaders: Record<string, string> = {}): Response {
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: RATE_LIMITED, message: error.message, data: { status: error.status, code: error.code } },
  }
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json', ...error.headers, ...extraHeaders },
  })
}

/**
 * The transport's own HTTP refusals (406 without the right Accept, 415, 400 for unparsable JSON) reworded as
 * `{"error": "..."}`, like every other refusal of the API; MCP clients read only the status of these.
 */
export async function plainError(response: Response): Promise<Response> {
  if (response.status < 400) return response
  const text = await response.text()
  let message = text || response.statusText || 'bad request'
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } }
    if (typeof body.error?.message === 'string') message = body.error.message
  } catch {
    // Not JSON: the text itself is the message.
  }
  const headers = new Headers(response.headers)
  headers.set('content-type', 'application/json')
  return new Response(JSON.stringify({ error: message }), { status: response.status, headers })
}

/** JSON-RPC's code for a request whose params do not fit the method. */
const INVALID_PARAMS = -32602

/**
 * The MCP SDK checks a request's params with its schemas and answers a mismatch (`"arguments": null` to tools/call)
 * as -32603, an internal error, with zod's issues as JSON for the message. It is the client's mistake: -32602, the
 * issues in words (`params.arguments: Invalid input: expected record, received null`).
 */
export async function invalidParams(response: Response): Promise<Response> {
  if (response.status !== 200 || !response.headers.get('content-type')?.includes('application/json')) return response
  const text = await response.clone().text()
  let body: { error?: { code?: unknown; message?: unknown } }
  let issues: unknown
  try {
    body = JSON.parse(text)
    if (body.error?.code !== -32603 || typeof body.error.message !== 'string') return response
    issues = JSON.parse(body.error.message)
  } catch {
    return response
  }
  if (!Array.isArray(issues) || !issues.every(isIssue)) return response
  const message = `invalid params: ${issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`
  return new Response(JSON.stringify({ ...body, error: { code: INVALID_PARAMS, message } }), {
    status: 200,
    headers: response.headers,
  })
}

function isIssue(value: unknown): value is { path: Array<string | number>; message: string } {
  const issue = value as { path?: unknown; message?: unknown } | null
  return typeof issue === 'object' && issue !== null && Array.isArray(issue.path) && typeof issue.message === 'string'
}
