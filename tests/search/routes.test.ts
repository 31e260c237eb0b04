import { beforeAll, describe, expect, it } from 'vitest'
import type { SearchResult } from '../../shared/search.ts'
import { bearer, json, stoppedClock, testDocent } from '../support/app.ts'

let t: Awaited<ReturnType<typeof testDocent>>

beforeAll(async () => {
  t = await testDocent({}, {})
})

const search = (body: unknown, key = t.keys.assistant, domain = 'demo') =>
  t.app.request(`/discovery/v1/search/${domain}`, json(body, bearer(key)))
const page = (body: unknown, key = t.keys.assistant, domain = 'demo') =>
  t.app.request(`/discovery/v1/page/${domain}`, json(body, bearer(key)))

describe('POST /discovery/v1/search/{domain}', () => {
  it('returns ranked sections with content, path and metadata', async () => {
    const res = await search({ query: 'how do I rotate an sdk key', pageSize: 3 })
    expect(res.status).toBe(200)
    const results = (await res.json()) as SearchResult[]
    expect(results).toHaveLength(3)
    expect(results[0]!.metadata.score).toBe(1)
    expect(results[0]!.path).toMatch(/environments$/)
    expect(results[0]!.metadata.url).toMatch(/^\/.+#rotat/)
    expect(results[0]!.metadata.title).toBe('Projects and environments')
    expect(results[0]!.content.length).toBeGreaterThan(50)
    for (const r of results) expect(Object.keys(r).sort()).toEqual(['content', 'metadata', 'path'])
  })

  it('defaults pageSize to 10, applies filter and scoreThreshold', async () => {
    const all = (await (await search({ query: 'flag' })).json()) as SearchResult[]
    expect(all).toHaveLength(10)
    const v1 = (await (await search({ query: 'environments', pageSize: 50, filter: { version: 'v1' } })).json()) as SearchResult[]
    expect(v1.map((r) => r.path)).toContain('api-reference/v1/environments')
    expect(v1.map((r) => r.path)).not.toContain('api-reference/v2/environments')
    const strict = (await (await search({ query: 'flag targeting rules', pageSize: 50, scoreThreshold: 0.9 })).json()) as SearchResult[]
    expect(strict.length).toBeGreaterThan(0)
    expect(strict.every((r) => r.metadata.score >= 0.9)).toBe(true)
    expect((await search({ query: 'flag', filter: null })).status).toBe(200)
  })

  it('rejects bad input with a 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ query: '' }, /query/],
      [{ query: '   ' }, /query/],
      [{}, /query/],
      [{ query: 'x'.repeat(501) }, /query/],
      [{ query: 'flag', pageSize: 0 }, /pageSize/],
      [{ query: 'flag', pageSize: 51 }, /pageSize/],
      [{ query: 'flag', pageSize: 2.5 }, /pageSize/],
      [{ query: 'flag', scoreThreshold: 1.5 }, /scoreThreshold/],
      [{ query: 'flag', filter: { groups: 'Guides' } }, /filter\.groups/],
    ]
    for (const [body, field] of cases) {
      const res = await search(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { error: string }).error).toMatch(field)
    }
    const broken = await t.app.request('/discovery/v1/search/demo', json('{"query":', bearer(t.keys.assistant)))
    expect(broken.status).toBe(400)
  })

  it("needs an assistant key for the domain, unless the project's docs are public", async () => {
    // The other project's docs are not public: no key, no search.
    expect((await t.app.request('/discovery/v1/search/acme.example', json({ query: 'flag' }))).status).toBe(401)
    expect((await t.app.request('/discovery/v1/page/acme.example', json({ path: 'quickstart' }))).status).toBe(401)
    expect((await search({ query: 'flag' }, t.keys.otherAssistant, 'acme.example')).status).toBe(200)
    // The demo's are: anyone may search them, but a key that is sent must be a valid one.
    expect((await t.app.request('/discovery/v1/search/demo', json({ query: 'flag' }))).status).toBe(200)
    expect((await t.app.request('/discovery/v1/page/demo', json({ path: 'quickstart' }))).status).toBe(200)
    expect((await search({ query: 'flag' }, 'svc_dsc_unknownunknownunknown')).status).toBe(401)
    const unknownDomain = await search({ query: 'flag' }, t.keys.assistant, 'unknown.example')
    expect(unknownDomain.status).toBe(403)
    expect(await unknownDomain.json()).toEqual({ error: 'this key is not valid for domain "unknown.example"', code: 'forbidden' })
    expect((await search({ query: 'flag' }, t.keys.otherAssistant)).status).toBe(403)
    expect((await search({ query: 'flag' }, t.keys.admin)).status).toBe(403)
  })

  it('answers CORS preflight for allowed origins', async () => {
    const res = await t.app.request('/discovery/v1/search/demo', {
      method: 'OPTIONS',
      headers: { origin: 'https://docs.example.com', 'access-control-request-method': 'POST' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
  })
})

describe('POST /discovery/v1/page/{domain}', () => {
  it('returns a page as markdown', async () => {
    const res = await page({ path: '/sdks/react' })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { path: string; content: string }
    expect(body.path).toBe('sdks/react')
    expect(body.content).toMatch(/^# /)
    expect(body.content).toContain('## Install')
  })

  it('404s unknown and hidden pages, 400s a bad path', async () => {
    for (const path of ['/nope', 'internal/release-checklist']) {
      const res = await page({ path })
      expect(res.status).toBe(404)
      expect(await res.json()).toEqual({ error: 'page not found', code: 'not_found' })
    }
    const bad = await page({ path: '' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: string }).error).toMatch(/path/)
    expect((await page({ path: 'sdks/react' }, t.keys.assistant, 'elsewhere')).status).toBe(403)
  })
})

describe('limits', () => {
  it('search and page count against the organization hourly limit', async () => {
    const limited = await testDocent({ limits: { organizationPerHour: 2 } }, stoppedClock)
    const ask = (path: string, body: unknown) => limited.app.request(path, json(body, bearer(limited.keys.assistant)))
    expect((await ask('/discovery/v1/search/demo', { query: 'flag' })).status).toBe(200)
    expect((await ask('/discovery/v1/page/demo', { path: 'quickstart' })).status).toBe(200)
    const third = await ask('/discovery/v1/search/demo', { query: 'flag' })
    expect(third.status).toBe(429)
    expect(third.headers.get('retry-after')).toBeTruthy()
    expect(((await third.json()) as { error: string }).error).toBeTruthy()
    await limited.docent.stop()
  })
})

describe('docs that cannot load', () => {
  it('answer 503 and do not break the server', async () => {
    const broken = await testDocent({
      projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: '/nonexistent/docs' }, allowedOrigins: ['*'] }],
    })
    const res = await broken.app.request('/discovery/v1/search/demo', json({ query: 'flag' }, bearer(broken.keys.assistant)))
    expect(res.status).toBe(503)
    expect(((await res.json()) as { error: string }).error).toMatch(/docs of this project cannot be loaded/)
    await broken.docent.stop()
  })
})
