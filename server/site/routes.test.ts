import { beforeAll, describe, expect, it } from 'vitest'
import { bearer, json, testDocent } from '../../tests/support/app.ts'
import { buildIfStale } from '../../widget/build.ts'

describe('demo site and widget files', () => {
  let app: Awaited<ReturnType<typeof testDocent>>['app']

  beforeAll(async () => {
    await buildIfStale()
    ;({ app } = await testDocent())
  })

  it('serves a docs page with navigation and the widget script tag carrying a working assistant key', async () => {
    const response = await app.request('/quickstart')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('text/html')
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await response.text()
    expect(html).toContain('<h1>Quickstart</h1>')
    // The description shows once, as the lead under the title.
    expect(html.split('Create your first feature flag in Lumen Flags and evaluate it').length).toBe(3) // meta + lead
    expect(html).toContain('aria-current="page"')
    expect(html).toMatch(/<a href="\/concepts\/flags">Flags<\/a>/)
    expect(html).toContain('id="prerequisites"')
    const tag = html.match(/<script src="\/widget\/docent\.js"([^>]*)><\/script>/)
    expect(tag).not.toBeNull()
    expect(tag![1]).toContain('data-domain="demo"')
    const key = tag![1]!.match(/data-api-key="(svc_dsc_[A-Za-z0-9]+)"/)?.[1]
    expect(key).toBeDefined()
    // The embedded key is a real assistant key for the demo project.
    const search = await app.request('/discovery/v1/search/demo', json({ query: 'feature flag' }, bearer(key!)))
    expect(search.status).toBe(200)
    // Every page embeds the same key (one per process).
    expect(await (await app.request('/')).text()).toContain(key)
  })

  it('renders the home page at /, pages outside the navigation at their URL (not in the menu), and no hidden pages', async () => {
    const home = await app.request('/')
    expect(home.status).toBe(200)
    expect(await home.text()).toContain('<h1>Introduction</h1>')
    const offNav = await app.request('/guides/legacy-migration/')
    expect(offNav.status).toBe(200)
    const menu = await (await app.request('/quickstart')).text()
    expect(menu).not.toContain('href="/guides/legacy-migration"')
    expect(menu).not.toContain('/internal/release-checklist')
    expect((await app.request('/internal/release-checklist')).status).toBe(404)
  })

  it('shows raw HTML in a page as text', async () => {
    const { renderPageHtml } = await import('./page-html.ts')
    const { html } = renderPageHtml('Hi <img src=x onerror="alert(1)"> there\n\n<script>alert(2)</script>\n\n[x](javascript:alert(3))')
    expect(html).not.toMatch(/<img|<script|href="javascript/i)
    expect(html).toContain('&#60;img')
  })

  it('answers an unknown page with an HTML 404 for browsers and JSON for API clients', async () => {
    const browser = await app.request('/no/such/page', { headers: { accept: 'text/html' } })
    expect(browser.status).toBe(404)
    expect(await browser.text()).toContain('Page not found')
    const api = await app.request('/no/such/page')
    expect(api.status).toBe(404)
    expect(await api.json()).toEqual({ error: 'not found', code: 'not_found' })
  })

  it('leaves API paths to their routes (405 stays JSON)', async () => {
    const response = await app.request('/discovery/v2/assistant/demo/message', { headers: { accept: 'text/html' } })
    expect(response.status).toBe(405)
    expect((await response.json()).error).toMatch(/not allowed/)
  })

  it('serves the built widget with CORS and refuses paths outside widget/dist', async () => {
    const loader = await app.request('/widget/docent.js')
    expect(loader.status).toBe(200)
    expect(loader.headers.get('content-type')).toContain('javascript')
    expect(loader.headers.get('access-control-allow-origin')).toBe('*')
    const etag = loader.headers.get('etag')!
    expect((await app.request('/widget/docent.js', { headers: { 'if-none-match': etag } })).status).toBe(304)
    const entry = await app.request('/widget/docent.mjs')
    expect(entry.status).toBe(200)
    const chunk = (await entry.text()).match(/\.\/(chunks\/[\w-]+\.mjs)/)?.[1]
    expect(chunk).toBeDefined()
    const lazy = await app.request(`/widget/${chunk}`)
    expect(lazy.status).toBe(200)
    expect(lazy.headers.get('cache-control')).toContain('immutable')
    for (const path of [
      '/widget/../package.json',
      '/widget/%2e%2e/%2e%2e/package.json',
      '/widget/chunks/../../build.ts',
      '/widget/nope.js',
    ]) {
      const response = await app.request(path)
      expect(response.status, path).toBe(404)
    }
  })
})
