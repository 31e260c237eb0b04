import { Hono } from 'hono'
import { describe, expect, test } from 'vitest'
import { compressResponses } from './compress.ts'

const big = 'The quick brown fox reads the docs. '.repeat(100)
const app = new Hono()
app.use('*', compressResponses({ threshold: 1024 }))
app.get('/json', (c) => c.json({ big }, 200, { vary: 'Origin', etag: '"abc"' }))
app.get('/tiny', (c) => c.json({ ok: true }))
app.get('/v1', (c) => c.body(big, 200, { 'content-type': 'text/plain; charset=utf-8', 'x-vercel-ai-data-stream': 'v1' }))
app.get('/sse', (c) => c.body(`data: ${big}\n\n`, 200, { 'content-type': 'text/event-stream' }))
app.get('/no-transform', (c) => c.text(big, 200, { 'cache-control': 'no-transform' }))
app.get('/image', (c) => c.body(new Uint8Array(4096), 200, { 'content-type': 'image/png' }))
app.get('/encoded', (c) => c.body(big, 200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }))

const get = (path: string, encoding = 'gzip, deflate, br') => app.request(path, { headers: { 'accept-encoding': encoding } })

describe('compressResponses', () => {
  test('compresses a large JSON body, keeps Vary and makes the ETag weak', async () => {
    const response = await get('/json')
    expect(response.headers.get('content-encoding')).toBe('br')
    expect(response.headers.get('vary')).toBe('Origin, Accept-Encoding')
    expect(response.headers.get('etag')).toBe('W/"abc"')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength)
    expect(bytes.byteLength).toBeLessThan(big.length / 4)
    const gzip = await get('/json', 'gzip')
    expect(gzip.headers.get('content-encoding')).toBe('gzip')
    const text = await new Response(gzip.body!.pipeThrough(new DecompressionStream('gzip'))).text()
    expect(JSON.parse(text)).toEqual({ big })
  })

  test('leaves tiny bodies, streams, no-transform, binary and already encoded bodies as they are', async () => {
    for (const path of ['/tiny', '/v1', '/sse', '/no-transform', '/image']) {
      const response = await get(path)
      expect(response.headers.get('content-encoding'), path).toBeNull()
      expect((await response.arrayBuffer()).byteLength, path).toBeGreaterThan(0)
    }
    expect((await get('/encoded')).headers.get('content-encoding')).toBe('gzip')
    expect(await (await get('/encoded')).text()).toBe(big)
  })

  test('identity, q=0 and no Accept-Encoding get the plain body', async () => {
    for (const encoding of ['identity', 'br;q=0, gzip;q=0', '']) {
      const response = await get('/json', encoding)
      expect(response.headers.get('content-encoding'), encoding).toBeNull()
      expect((await response.json()).big).toBe(big)
    }
  })
})
