import { boundedStream, isRedirect } from '../http/outbound.ts'

/**
 * The most one answer of the model server may hold. A streamed answer is tens of KB and a batch of embeddings a few
 * MB; an endless one grew the server by 2 GB before V8's string limit stopped it.
 */
export const MAX_MODEL_RESPONSE_BYTES = 64 * 1024 * 1024

/**
 * The model client's fetch: it does not follow redirects (the prompt, docs included, would go to whatever address a
 * redirect names), and stops reading an answer past MAX_MODEL_RESPONSE_BYTES. Both end the call with an error the
 * AI SDK reports as the server's own (OpenAI's `{ error: { message } }`).
 */
export function boundedModelFetch(fetchImpl: typeof fetch): typeof fetch {
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
      MAX_MODEL_RESPONSE_BYTES,
      () => new Error(`the model server's answer is over ${MAX_MODEL_RESPONSE_BYTES / (1024 * 1024)} MiB`),
    )
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}
