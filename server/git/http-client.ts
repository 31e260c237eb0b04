import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git'

/**
 * isomorphic-git's HTTP client over an injected `fetch` (the context's), so tests and runtimes choose the transport
 * and no global is assumed. Request bodies are collected first: streaming uploads are not portable across runtimes.
 */
export function fetchHttpClient(fetchImpl: typeof fetch, signal?: AbortSignal): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const body = request.body ? await collect(request.body) : undefined
      const response = await fetchImpl(request.url, {
        method: request.method ?? 'GET',
        headers: request.headers,
        body,
        // isomorphic-git passes a signal to push only; the bound one also cancels clones.
        signal: (request as { signal?: AbortSignal }).signal ?? signal,
      })
      const headers: Record<string, string> = {}
      response.headers.forEach((value, key) => {
        headers[key] = value
      })
      return {
        url: response.url || request.url,
        method: request.method,
        statusCode: response.status,
        statusMessage: response.statusText,
        headers,
        body: response.body ? iterate(response.body) : undefined,
      }
    },
  }
}

async function collect(chunks: AsyncIterableIterator<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = []
  let size = 0
  for await (const chunk of chunks) {
    parts.push(chunk)
    size += chunk.byteLength
  }
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.byteLength
  }
  return out
}

async function* iterate(stream: ReadableStream<Uint8Array>): AsyncIterableIterator<Uint8Array> {
  const reader = stream.getReader()
  try {
    while (true) {
      const { value, done } = await reader.read()
      if (done) return
      if (value) yield value
    }
  } finally {
    reader.releaseLock()
  }
}
