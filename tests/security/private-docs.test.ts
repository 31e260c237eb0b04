import { afterAll, describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'

// One setting, `docs.public`, decides who may read a project's docs, on every way of reading them: llms.txt,
// llms-full.txt, page markdown, the search and page endpoints, MCP, and the HTML pages of the site.

const ORIGIN = 'https://elsewhere.example'
const mcp = (headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_page', arguments: { path: 'quickstart' } } }),
})

/** Every way of reading one project's docs, as `[name, request]`; the site project's root files when `atRoot`. */
function reads(domain: string, atRoot: boolean, headers: Record<string, string>): Array<[string, string, RequestInit]> {
  const base = atRoot ? '' : `/docs/${domain}`
  return [
    ['llms.txt', `${base}/llms.txt`, { headers }],
    ['llms-full.txt', `${base}/llms-full.txt`, { headers }],
    ['page markdown', `${base}/quickstart.md`, { headers }],
    ['search', `/discovery/v1/search/${domain}`, json({ query: 'install' }, headers)],
    ['page', `/discovery/v1/page/${domain}`, json({ path: 'quickstart' }, headers)],
    ['MCP', `/mcp/${domain}`, mcp(headers)],
  ]
}

const t = await testDocent({
  projects: [
    // The site project (Docent serves its pages at /), private.
    {
      id: 'private',
      organization: 'acme',
      domain: 'private.example',
      docs: { directory: 'demo/docs' },
      allowedOrigins: ['https://docs.acme.com'],
    },
    { id: 'open', organization: 'acme', domain: 'open.example', docs: { directory: 'demo/docs', public: true } },
  ],
})
afterAll(() => t.docent.stop())
const { createKey } = await import('../../server/keys/keys.ts')
const privateKey = (await createKey(t.store, { kind: 'assistant', organization: 'acme', projectId: 'private' })).secret
const openKey = (await createKey(t.store, { kind: 'assistant', organization: 'acme', projectId: 'open' })).secret

describe('docs.public', () => {
  test('a private project’s docs need its key everywhere, and only its allowed origins get a grant', async () => {
    for (const atRoot of [true, false]) {
      for (const [name, path, init] of reads('private.example', atRoot, { origin: 'https://docs.acme.com' })) {
        const response = await t.app.request(path, init)
        expect(response.status, `${name} at ${path}`).toBe(401)
        expect(response.headers.get('access-control-allow-origin'), name).toBe('https://docs.acme.com')
      }
      for (const [name, path, init] of reads('private.example', atRoot, { origin: ORIGIN })) {
        const response = await t.app.request(path, init)
        expect(response.status, `${name} at ${path}`).toBe(403)
        expect(response.headers.get('access-control-allow-origin'), name).toBeNull()
      }
      for (const [name, path, init] of reads('private.example', atRoot, bearer(privateKey))) {
        const response = await t.app.request(path, init)
        expect(response.status, `${name} at ${path} with the key`).toBe(200)
        expect(response.headers.get('cache-control') ?? 'private', name).not.toMatch(/public/)
      }
      // Another project's key does not open them either.
      for (const [name, path, init] of reads('private.example', atRoot, bearer(openKey))) {
        expect((await t.app.request(path, init)).status, name).toBe(403)
      }
    }
    // Nor are its pages served as HTML (a browser visiting them sends no key), and no site key is made for them.
    const html = await t.app.request('/quickstart', { headers: { accept: 'text/html' } })
    expect(html.status).toBe(404)
    expect((await t.store.listKeys('acme')).map((key) => key.name)).not.toContain('demo site (made at start)')
  })

  test('a public project’s docs are open to anyone, from any origin for its files', async () => {
    for (const [name, path, init] of reads('open.example', false, {})) {
      expect((await t.app.request(path, init)).status, `${name} at ${path}`).toBe(200)
    }
    // The files and MCP from any origin; search and page follow the project's allowedOrigins, as answers do.
    for (const [name, path, init] of reads('open.example', false, { origin: ORIGIN }).filter(
      ([, path]) => !path.startsWith('/discovery/'),
    )) {
      const response = await t.app.request(path, init)
      expect(response.status, `${name} at ${path}`).toBe(200)
      expect(response.headers.get('access-control-allow-origin'), name).toBe('*')
    }
    // A wrong key is still refused rather than ignored.
    expect((await t.app.request('/docs/open.example/llms.txt', { headers: bearer(privateKey) })).status).toBe(403)
  })
})
