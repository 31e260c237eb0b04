// The console's built files, as browsers should get them: the brotli or gzip copy the build wrote beside each file
// (chosen by Accept-Encoding, so nothing is compressed per request), `Vary: Accept-Encoding`, a year of immutable
// caching for hashed names, ETag revalidation for the rest. Same interface as the widget's shared module
// (`server/http/static-files.ts` on the widget branch): at merge, the console switches to that one and this file goes.

export interface StaticFilesOptions {
  /** The folder served, as a file URL ending in `/`. */
  root: URL
  /** Which relative paths are served (checked before any read); `..`, `\`, `%` and `.br`/`.gz` are refused in any case. */
  name: RegExp
  /** Paths whose names carry a content hash: browsers keep them without asking again. */
  immutable: (path: string) => boolean
  headers?: Record<string, string>
}

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
}
const COMPRESSIBLE = new Set(['js', 'css', 'html', 'json', 'svg'])

/** `(request, path)` → the file's response (or 304), or null when there is no such file. */
export function staticFiles(options: StaticFilesOptions) {
  return async (request: Request, path: string): Promise<Response | null> => {
    if (!options.name.test(path) || /\.\.|\\|%|^\/|\.(br|gz)$/.test(path)) return null
    const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ''
    const accept = request.headers.get('accept-encoding') ?? ''
    let body: Uint8Array | null = null
    let encoding: string | null = null
    if (COMPRESSIBLE.has(extension)) {
      for (const [name, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        if (!new RegExp(`(^|[\\s,])${name}(?!;q=0(\\.0*)?(\\s|,|$))`, 'i').test(accept)) continue
        body = await readFile(new URL(`${path}${suffix}`, options.root))
        if (body) {
          encoding = name
          break
        }
      }
    }
    body ??= await readFile(new URL(path, options.root))
    if (!body) return null
    const headers = new Headers(options.headers)
    headers.set('content-type', TYPES[extension] ?? 'application/octet-stream')
    headers.set('cache-control', options.immutable(path) ? 'public, max-age=31536000, immutable' : 'no-cache')
    headers.set('x-content-type-options', 'nosniff')
    if (COMPRESSIBLE.has(extension)) headers.set('vary', 'Accept-Encoding')
    if (encoding) headers.set('content-encoding', encoding)
    const digest = await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>)
    const etag = `"${[...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')}"`
    headers.set('etag', etag)
    if (request.headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers })
    return new Response(request.method === 'HEAD' ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers })
  }
}

let nodeReadFile: ((url: URL) => Promise<Uint8Array>) | null | undefined

/** node:fs where the runtime has it (Node, Deno, Bun, loaded lazily), else fetch of the file URL (Deno Deploy). */
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
