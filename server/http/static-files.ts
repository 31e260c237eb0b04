// Built files (the widget's scripts; the console's app) as browsers should get them: the brotli or gzip copy the
// build wrote beside each file, chosen by Accept-Encoding (so nothing is compressed per request), `Vary:
// Accept-Encoding`, a year of immutable caching for names that carry a content hash, and ETag revalidation (304) for
// the others. Web standards only: files are read with `node:fs` where the runtime has it (Node, Deno, Bun, all lazily),
// else with `fetch` of the file URL (Deno Deploy).

export interface StaticFilesOptions {
  /** The folder served, as a file URL ending in `/`. */
  root: URL
  /** Which relative paths are served (checked before any read); `..`, `\`, `%` and `.br`/`.gz` are refused in any case. */
  name: RegExp
  /** Paths whose names carry a content hash: they never change, so browsers keep them without asking again. */
  immutable: (path: string) => boolean
  /** Added to every response (CORS grants, for instance). */
  headers?: Record<string, string>
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
  wasm: 'application/wasm',
  png: 'image/png',
  woff2: 'font/woff2',
}
const COMPRESSIBLE = new Set(['js', 'mjs', 'css', 'html', 'json', 'map', 'svg', 'txt', 'wasm'])
/** Preferred first when the client accepts both equally. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  {
    name: 'gzip',
    suffix: '.gz',
  },
] as const

/**
 * Makes the handler for one folder: `(request, path)` answers with the file (or a 304), or null when there is no
 * such file, so the route decides what a missing file means.
 *
 * @example
 * const serve = staticFiles({ root: new URL('./dist/', import.meta.url), name: /^[\w-]+\.mjs$/, immutable: (p) => p.includes('-') })
 * app.get('/app/:file', async (c) => (await serve(c.req.raw, c.req.param('file'))) ?? c.notFound())
 */
export function staticFiles(options: StaticFilesOptions) {
  return async (request: Request, path: string): Promise<Response | null> => {
    // The compressed copies are representations of a file, not files to ask for.
    if (!options.name.test(path) || /\.\.|\\|%|^\/|\.(br|gz)$/.test(path)) {
      return null
    }
    const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''
    const compressible = COMPRESSIBLE.has(extension)
    let body: Uint8Array | null = null
    let encoding: string | null = null
    if (compressible) {
      for (const candidate of acceptedEncodings(request.headers.get('accept-encoding'))) {
        body = await readFile(new URL(`${path}${candidate.suffix}`, options.root))
        if (body) {
          encoding = candidate.name
          break
        }
      }
    }
    body ??= await readFile(new URL(path, options.root))
    if (!body) return null
    const headers = new Headers(options.headers)
    headers.set('content-type', TYPES[extension] ?? 'application/octet-stream')
    headers.set('cache-control', options.immutable(path) ? 'public, max-age=31536000, immutable' : 'public, no-cache')
    headers.set('x-content-type-options', 'nosniff')
    if (compressible) headers.set('vary', 'Accept-Encoding')
    if (encoding) headers.set('content-encoding', encoding)
    // One ETag per representation (the brotli and gzip copies are different bytes), as HTTP requires of strong ETags.
    const etag = `"${await contentHash(body)}"`
    headers.set('etag', etag)
    if (matches(request.headers.get('if-none-match'), etag)) {
      return new Response(null, { status: 304, headers })
    }
    return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers })
  }
}

/** The encodings the client accepts (q > 0), in our order of preference. */
export function acceptedEncodings(header: string | null): Array<(typeof ENCODINGS)[number]> {
  if (!header) return []
  const q = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    const quality = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined)
    if (name) q.set(name.trim(), quality === undefined ? 1 : Number(quality))
  }
  const wildcard = q.get('*')
  return ENCODINGS.filter(({ name }) => (q.get(name) ?? wildcard ?? 0) > 0).sort(
    (a, b) => (q.get(b.name) ?? wildcard ?? 0) - (q.get(a.name) ?? wildcard ?? 0),
  )
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  if (ifNoneMatch.trim() === '*') return true
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)
}

async function contentHash(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

let nodeReadFile: ((url: URL) => Promise<Uint8Array>) | null | undefined

async function readFile(url: URL): Promise<Uint8Array | null> {
  if (nodeReadFile === undefined) {
    try {
      const fs = await import('node:fs/promises')
      nodeReadFile = (file) => fs.readFile(file)
    } catch {
      nodeReadFile = null
    }
  }
  try {
    if (nodeReadFile) return new Uint8Array(await nodeReadFile(url))
    const response = await fetch(url)
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null
  } catch {
    return null
  }
}
