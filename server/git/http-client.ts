import { boundedStream, isRedirect } from '../http/outbound.ts'
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git'

/**
 * The most one answer of a git server may hold. A ref list (`info/refs`) of a repository with tens of thousands of
 * branches and tags is a few MB; a pack of a docs repository, images included, a few hundred. Past these the clone
 * fails: the workspace is in memory, and an endless answer grew the server by 4 GB in 30 s.
 */
export const MAX_GIT_REFS_BYTES = 64 * 1024 * 1024
export const MAX_GIT_PACK_BYTES = 512 * 1024 * 1024
export interface AnswerLimits {
  refs: number
  pack: number
}
/** Redirects followed, on the same origin only (a moved repository on the same host). */
const MAX_REDIRECTS = 5

/**
 * isomorphic-git's HTTP client over an injected `fetch` (the context's), so tests and runtimes choose the transport
 * and no global is assumed. Request bodies are collected first: streaming uploads are not portable across runtimes.
 * A redirect to another origin is refused: it would send the clone to an address the config does not name (the
 * answer's start shows in errors).
 */
export function fetchHttpClient(
  fetchImpl: typeof fetch,
  signal?: AbortSignal,
  limits: AnswerLimits = { refs: MAX_GIT_REFS_BYTES, pack: MAX_GIT_PACK_BYTES },
): HttpClient & { cut: Error | null } {
  const client = {
    /**
     * Why an answer was cut short, once one was: isomorphic-git reads a failed stream as its end ("Could not find
     * main." after a ref list cut at its limit), so callers report this instead.
     */
    cut: null as Error | null,
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const body = request.body ? await collect(request.body) : undefined
      const method = request.method ?? 'GET'
      let url = request.url
      let response: Response
      for (let hops = 0; ; hops++) {
        response = await fetchImpl(url, {
          method,
          headers: request.headers,
          body,
          // isomorphic-git passes a signal to push only; the bound one also cancels clones.
          signal: (request as { signal?: AbortSignal }).signal ?? signal,
          redirect: 'manual',
        })
        if (!isRedirect(response)) break
        void response.body?.cancel().catch(() => undefined)
        const next = URL.parse(response.headers.get('location') ?? '', url)
        if (!next || next.origin !== new URL(url).origin) {
          throw new Error(`the git server answered with a redirect to another host; use the repository's final address`)
        }
        if (hops === MAX_REDIRECTS) throw new Error(`the git server redirected more than ${MAX_REDIRECTS} times`)
        url = next.href
      }
      const headers: Record<string, string> = {}
      response.headers.forEach((value, key) => {
        headers[key] = value
      })
      const limit = method === 'GET' ? limits.refs : limits.pack
      return {
        url: response.url || url,
        method: request.method,
        statusCode: response.status,
        statusMessage: response.statusText,
        headers,
        body: response.body
          ? iterate(
              boundedStream(response.body, limit, () => {
                client.cut = new Error(
                  `the git server's answer is over ${limit} bytes, the most Docent reads of one (see ${method === 'GET' ? 'MAX_GIT_REFS_BYTES' : 'MAX_GIT_PACK_BYTES'})`,
                )
                return client.cut
              }),
            )
          : undefined,
      }
    },
  }
  return client
}

/**
 * Runs a git operation over `http`. isomorphic-git reads an answer the client cut short (see `cut`) as a whole one, and
 * fails later, if at all, for want of what was cut ("Could not find main."): the cut is the operation's error.
 */
export async function reportingCuts<T>(http: { cut: Error | null }, operation: () => Promise<T>): Promise<T> {
  let result: T
  try {
    result = await operation()
  } catch (error) {
    throw http.cut ?? error
  }
  if (http.cut) throw http.cut
  return result
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
