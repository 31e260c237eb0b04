import { beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { testDocent } from '../support/app.ts'

// /console/*: the built app as browsers get it — precompressed copies by Accept-Encoding, hashed assets cached for a
// year, index.html for every screen's path (the router reads it), JSON 404s on the console's API paths.

beforeAll(async () => {
  await buildConsoleIfStale()
}, 120_000)

describe('console files', () => {
  test('index.html for the app and each screen path, revalidated, with a strict policy', async () => {
    const t = await testDocent()
    for (const path of ['/console', '/console/', '/console/demo/gaps/gap_1?status=open']) {
      const response = await t.app.request(path, { headers: { accept: 'text/html' } })
      expect(response.status, path).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('cache-control')).toBe('public, no-cache')
      expect(response.headers.get('content-security-policy')).toContain("script-src 'self'")
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(await response.text()).toContain('<docent-console>')
    }
  })

  test('assets: brotli or gzip as accepted, immutable, ETag per representation; unknown paths are 404', async () => {
    const t = await testDocent()
    const html = await (await t.app.request('/console')).text()
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)![1]!
    const br = await t.app.request(script, { headers: { 'accept-encoding': 'gzip, br' } })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    const gzip = await t.app.request(script, { headers: { 'accept-encoding': 'gzip' } })
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    expect(gzip.headers.get('etag')).not.toBe(br.headers.get('etag'))
    const plain = await t.app.request(script)
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const again = await t.app.request(script, { headers: { 'if-none-match': plain.headers.get('etag')! } })
    expect(again.status).toBe(304)
    expect((await t.app.request('/console/assets/nope.js')).status).toBe(404)
    expect((await t.app.request('/console/assets/..%2F..%2Fpackage.json')).status).toBe(404)
    const api = await t.app.request('/console/api/demo/nothing')
    expect(api.status).toBe(404)
    expect(await api.json()).toMatchObject({ code: 'not_found' })
  })
})
