import type { HttpClient } from 'isomorphic-git'

/** isomorphic-git's HTTP client over a given fetch (so tests and runtimes pass theirs in). */
export function fetchHttpClient(fetchImpl: typeof fetch): HttpClient {
  return {
    async request({ url, method = 'GET', headers = {}, body }) {
      const payload = body ? await collect(body) : undefined
      const response = await fetchImpl(url, { method, headers, body: payload as BodyInit | undefined })
      const responseHeaders: Record<string, string> = {}
      response.headers.forEach((value, key) => {
        responseHeaders[key] = value
      })
      return {
        url: response.url || url,
        method,
        headers: responseHeaders,
        body: response.body ? iterate(response.body) : undefined,
        statusCode: response.status,
        statusMessage: response.statusText,
      }
    },
  }
}

async function collect(body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of body) {
    chunks.push(chunk)
    size += chunk.byteLength
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.byteLength
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
