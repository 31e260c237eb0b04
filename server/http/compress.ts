// Responses compressed on the fly: JSON, docs pages, llms.txt/llms-full.txt and markdown are text that shrinks 3-10×,
// and the widget's readers are often on slow links. Built files come precompressed from static-files.ts (they carry
// Content-Encoding already and are left alone); streams that must reach the reader chunk by chunk (server-sent events,
// the v1 data stream) are never touched, because CompressionStream has no way to flush per chunk.
import type { MiddlewareHandler } from 'hono'
import { acceptedEncodings } from './static-files.ts'
import { SizedCache } from '../sized-cache.ts'

export interface CompressOptions {
  /** Bodies smaller than this many bytes are sent as they are (compression would save little and cost a round of CPU). */
  threshold?: number
}

/** Text bodies that are complete when the handler returns (the ones we buffer and compress). */
const COMPRESSIBLE = /^(?:text\/(?:html|markdown|plain|css|xml)|application\/(?:json|[\w.+-]+\+json|javascript|xml)|image\/svg\+xml)\b/i
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i
/** Compressed bodies of responses with a strong ETag (llms-full.txt, pages), so a big text is compressed once. */
const CACHE_BYTES = 16 * 1024 * 1024

/**
 * Compresses complete text responses of at least `threshold` bytes with brotli or gzip, as the request's
 * Accept-Encoding allows (q=0 refuses one; none or `identity` gets the bytes as they are), adds `Vary:
 * Accept-Encoding`, sets Content-Length to the compressed size and makes a strong ETag weak (the bytes differ from the
 * identity representation's). HEAD requests, 204/206/304, already encoded bodies, `Cache-Control: no-transform` and
 * streams (`text/event-stream`, `X-Accel-Buffering: no`, the v1 data stream) pass unchanged.
 *
 * @example
 * app.use('*', compressResponses({ threshold: 1024 }))
 */
export function compressResponses({ threshold = 1024 }: CompressOptions = {}): MiddlewareHandler {
  const cache = new SizedCache<Uint8Array>(CACHE_BYTES, (bytes) => bytes.byteLength)
  return async (c, next) => {
    await next()
    const response = c.res
    const type = response.headers.get('content-type')
    if (
      !type ||
      !COMPRESSIBLE.test(type) ||
      !response.body ||
      response.status === 204 ||
      response.status === 206 ||
      response.status === 304 ||
      response.headers.has('content-encoding') ||
      response.headers.get('x-accel-buffering') === 'no' ||
      response.headers.has('x-vercel-ai-data-stream') ||
      NO_TRANSFORM.test(response.headers.get('cache-control') ?? '')
    ) {
      return
    }
    const length = Number(response.headers.get('content-length') ?? Number.NaN)
    if (length < threshold) return
    if (c.req.method === 'HEAD') {
      addVary(response.headers)
      return
    }
    const bytes = new Uint8Array(await response.arrayBuffer())
    // The body is read: every path below answers with a new response carrying these bytes or their compressed copy.
    const headers = new Headers(response.headers)
    const answer = (body: Uint8Array) => {
      // Cleared first: Hono's setter would copy the old response's headers (its ETag, its length) over the new one's.
      c.res = undefined
      c.res = new Response(body as Uint8Array<ArrayBuffer>, { status: response.status, statusText: response.statusText, headers })
    }
    if (bytes.byteLength < threshold) {
      answer(bytes)
      return
    }
    addVary(headers)
    const encoding = (await availableEncodings(c.req.header('accept-encoding') ?? null))[0]
    if (!encoding) {
      answer(bytes)
      return
    }
    const etag = headers.get('etag')
    const key = etag && !etag.startsWith('W/') ? `${encoding} ${etag}` : null
    const compressed = (key && cache.get(key)) || (await compressBytes(bytes, encoding))
    if (compressed.byteLength >= bytes.byteLength) {
      answer(bytes)
      return
    }
    if (key) cache.set(key, compressed)
    headers.set('content-encoding', encoding)
    headers.set('content-length', String(compressed.byteLength))
    if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`)
    answer(compressed)
  }
}

function addVary(headers: Headers): void {
  const vary = headers.get('vary')
  if (vary === '*' || (vary && /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary))) return
  headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
}

type Encoding = 'br' | 'gzip'
type Brotli = (bytes: Uint8Array) => Promise<Uint8Array>
let brotli: Brotli | null | undefined

/** The encodings the request accepts that this runtime can write, best first. */
async function availableEncodings(header: string | null): Promise<Encoding[]> {
  const accepted = acceptedEncodings(header).map((encoding) => encoding.name)
  if (accepted.includes('br') && (await brotliCompressor()) === null) return accepted.filter((name) => name !== 'br')
  return accepted
}

/**
 * Brotli from `node:zlib` (Node, Deno and Bun all have it; Node's CompressionStream has no brotli) at quality 5: about
 * gzip's speed with smaller output, where the default 11 would cost milliseconds per response. Null without node:zlib.
 */
async function brotliCompressor(): Promise<Brotli | null> {
  if (brotli !== undefined) return brotli
  try {
    const zlib = await import('node:zlib')
    brotli = (bytes) =>
      new Promise((resolve, reject) =>
        zlib.brotliCompress(
          bytes,
          {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
              [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            },
          },
          (error, result) => (error ? reject(error) : resolve(new Uint8Array(result.buffer, result.byteOffset, result.byteLength))),
        ),
      )
  } catch {
    brotli = null
  }
  return brotli
}

async function compressBytes(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array> {
  if (encoding === 'br') return (await brotliCompressor())!(bytes)
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}
