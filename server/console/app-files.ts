import { Hono } from 'hono'
import type { AppEnv } from '../http/route.ts'
import { staticFiles } from '../http/static-files.ts'

const DIST = new URL('../../console/dist/', import.meta.url)

// The app's HTML loads only its own scripts and styles; the API is same-origin. Charts draw on canvas (no inline
// styles needed from a library); Lit's styles are constructed stylesheets, which style-src 'self' allows.
const APP_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
}

/**
 * `/console` and `/console/*`: the built app. Hashed assets are cached for a year; every other path is one of the
 * app's screens (`/console/demo/gaps`), answered with index.html, which the app's router reads.
 */
export function consoleFiles(): Hono<AppEnv> {
  const serve = staticFiles({
    root: DIST,
    name: /^(?:index\.html|assets\/[A-Za-z0-9_.-]+\.(?:js|css|svg|woff2)|favicon\.svg)$/,
    immutable: (path) => path.startsWith('assets/'),
    headers: APP_HEADERS,
  })
  const app = new Hono<AppEnv>()
  const index = async (request: Request) =>
    (await serve(request, 'index.html')) ??
    new Response('the console is not built: run `npm run build`', { status: 404, headers: { 'content-type': 'text/plain' } })
  app.get('/console', (c) => index(c.req.raw))
  app.get('/console/*', async (c) => {
    const path = c.req.path.slice('/console/'.length)
    // The console's API paths are the API's: an unknown one is a JSON 404, never the app.
    if (path.startsWith('api/') || path.startsWith('session')) return c.json({ error: 'not found', code: 'not_found' }, 404)
    if (path.startsWith('assets/') || path === 'favicon.svg') {
      return (await serve(c.req.raw, path)) ?? c.json({ error: 'no such console file', code: 'not_found' }, 404)
    }
    return index(c.req.raw)
  })
  return app
}
