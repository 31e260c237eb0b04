import { createServer, type Server } from 'node:http'
import { closeServer, listenLocal, readBody } from './local-http.ts'

// A scripted OpenAI-compatible chat-completions server: the only fake the project allows (there is no network, and
// no LLM). It speaks the wire format `@ai-sdk/openai` uses, streaming (SSE chunks) and not, with tool calls.

export interface ScriptedToolCall {
  name: string
  arguments: Record<string, unknown>
}

export type ScriptedReply =
  | { text: string; chunkSize?: number }
  | { toolCalls: ScriptedToolCall[] }
  /** An HTTP error before any output. */
  | { status: number; error: string }
  /** Streams this text, then drops the connection: the model failing mid-answer. */
  | { text: string; failAfterChars: number }

export interface ChatRequest {
  model: string
  stream?: boolean
  messages: Array<{ role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string }>
  tools?: Array<{ type: string; function: { name: string } }>
  [field: string]: unknown
}

export interface EmbeddingRequest {
  model: string
  input: string[]
  [field: string]: unknown
}

export interface ScriptedOpenAIOptions {
  /**
   * Serves `POST /v1/embeddings` with this text → vector function (deterministic, from the test). When it throws, the
   * request fails with a 500: the embedding server being down.
   */
  embed?: (text: string) => number[] | Promise<number[]>
}

export interface ScriptedOpenAI {
  /** Base URL for `OPENAI_BASE_URL` / `createOpenAI({ baseURL })` (ends in `/v1`). */
  baseURL: string
  /** Every chat request received, in order. */
  requests: ChatRequest[]
  /** Every embeddings request received, in order. */
  embeddingRequests: EmbeddingRequest[]
  /** The text of every message of a request, joined: what the model was shown. */
  promptOf(request: ChatRequest): string
  close(): Promise<void>
}

/** Starts the server; `script` decides each reply from the request (and its index among all requests). */
export async function startScriptedOpenAI(
  script: (request: ChatRequest, index: number) => ScriptedReply,
  options: ScriptedOpenAIOptions = {},
): Promise<ScriptedOpenAI> {
  const requests: ChatRequest[] = []
  const embeddingRequests: EmbeddingRequest[] = []
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.endsWith('/embeddings') && options.embed) {
      const request = JSON.parse(await readBody(req)) as EmbeddingRequest
      embeddingRequests.push(request)
      const inputs = typeof request.input === 'string' ? [request.input] : request.input
      try {
        const data = await Promise.all(
          inputs.map(async (text, index) => ({ object: 'embedding', index, embedding: await options.embed!(text) })),
        )
        const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0)
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data, model: request.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }))
      } catch (error) {
        res
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `embedding failed: ${(error as Error).message}`, type: 'server_error' } }))
      }
      return
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }))
      return
    }
    const request = JSON.parse(await readBody(req)) as ChatRequest
    requests.push(request)
    let reply: ScriptedReply
    try {
      reply = script(request, requests.length - 1)
    } catch (error) {
      reply = { status: 500, error: `script failed: ${(error as Error).message}` }
    }
    const id = `chatcmpl-${requests.length}`
    const base = { id, created: Math.floor(Date.now() / 1000), model: request.model }
    if ('status' in reply) {
      res
        .writeHead(reply.status, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: reply.error, type: 'server_error' } }))
      return
    }
    const toolCalls =
      'toolCalls' in reply
        ? reply.toolCalls.map((call, i) => ({
            id: `call_${requests.length}_${i}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          }))
        : undefined
    const text = 'text' in reply ? reply.text : ''
    const finishReason = toolCalls ? 'tool_calls' : 'stop'
    const usage = {
      prompt_tokens: 10,
      completion_tokens: Math.max(1, Math.ceil(text.length / 4)),
      total_tokens: 10 + Math.ceil(text.length / 4),
    }
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: toolCalls ? null : text, ...(toolCalls ? { tool_calls: toolCalls } : {}) },
              finish_reason: finishReason,
            },
          ],
          usage,
        }),
      )
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (chunk: unknown) => res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    const delta = (d: Record<string, unknown>, finish: string | null = null) =>
      send({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: d, finish_reason: finish }] })
    delta({ role: 'assistant', content: '' })
    if (toolCalls) {
      toolCalls.forEach((call, index) => delta({ tool_calls: [{ index, ...call }] }))
    } else {
      const size = 'chunkSize' in reply && reply.chunkSize ? reply.chunkSize : 12
      const limit = 'failAfterChars' in reply ? reply.failAfterChars : text.length
      for (let at = 0; at < limit; at += size) delta({ content: text.slice(at, Math.min(at + size, limit)) })
      if ('failAfterChars' in reply) {
        // Drop the connection mid-stream, as a crashing model server would.
        res.socket?.destroy()
        return
      }
    }
    delta({}, finishReason)
    send({ ...base, object: 'chat.completion.chunk', choices: [], usage })
    res.end('data: [DONE]\n\n')
  })
  const url = await listenLocal(server)
  return {
    baseURL: `${url}/v1`,
    requests,
    embeddingRequests,
    promptOf: (request) =>
      request.messages
        .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? '')))
        .join('\n'),
    close: () => closeServer(server),
  }
}
