import { ApiError } from '../http/errors.ts'

/** JSON-RPC error codes: the spec's reserved server range, one per HTTP refusal so clients can tell them apart. */
const RPC_CODES: Record<number, number> = {
  401: -32001,
  403: -32003,
  404: -32004,
  405: -32005,
  413: -32013,
  429: -32029,
  503: -32053,
}

/**
 * An HTTP refusal as the MCP Streamable HTTP transport answers one: the status (and its headers, e.g. Retry-After)
 * with a JSON-RPC error response without an id as the body. The SDK client reports the status and this text.
 */
export function rpcErrorResponse(error: ApiError, extraHeaders: Record<string, string> = {}): Response {
  const body = {
    jsonrpc: '2.0',
    id: null,
    error: { code: RPC_CODES[error.status] ?? -32000, message: error.message, data: { status: error.status, code: error.code } },
  }
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: { 'content-type': 'application/json', ...error.headers, ...extraHeaders },
  })
}
