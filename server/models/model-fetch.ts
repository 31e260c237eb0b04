import { boundedStream, isRedirect } from '../http/outbound.ts'

/**
 * The most one answer of the model server may hold by default: a batch of embeddings is a few MB; an endless answer
 * grew the server by 2 GB before V8's string limit stopped it.
 */
export const MAX_MODEL_RESPONSE_BYTES = 64 * 1024 * 1024

/**
 * The most a chat completion may hold, unless the agent may change more (see `chatResponseBytes`). A streamed answer
 * is tens of KB; a model that wrote a 60 MB tool call held the event loop for 12 s while the agent parsed and stored it.
 */
export const MIN_CHAT_RESPONSE_BYTES = 8 * 1024 * 1024

/**
 * The cap of one chat completion: room for a tool call writing all the agent may change in a run
 * (`limits.agentMaxChangedBytes`), escaped twice (the arguments are JSON in a JSON string), and not less than
 * MIN_CHAT_RESPONSE_BYTES.
 */
export const chatResponseBytes = (agentMaxChangedBytes: number) => Math.max(MIN_CHAT_RESPONSE_BYTES, 4 * agentMaxChangedBytes)

/**
 * The model client's fetch: it does not follow redirects (the prompt, docs included, would go to whatever address a
 * redirect names), and stops reading an answer past `maxBytes`. Both end the call with an error the
 * AI SDK reports as the server's own (OpenAI's `{ error: { message } }`).
 */
export function boundedModelFetch(fetchImpl: typeof fetch, maxBytes = MAX_MODEL_RESPONSE_BYTES): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, { ...init, redirect: 'manual' })
    if (isRedirect(response)) {
      void response.body?.cancel().catch(() => undefined)
      return Response.json(
        {
          error: {
            message: `the model server answered with a redirect (${response.status || 'opaque'}); Docent does not follow it: set model.baseURL to the address the server answers at`,
          },
        },
        { status: 502 },
      )
    }
    if (!response.body) return response
    const bounded = boundedStream(
      response.body,
      maxBytes,
      () => new Error(`the model server's answer is over ${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MiB`),
    )
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
