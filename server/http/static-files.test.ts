import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { brotliCompressSync, gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { acceptedEncodings, staticFiles } from './static-files.ts'

describe('static files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docent-static-'))
  mkdirSync(join(dir, 'chunks'))
  const entry = 'export const x = 1;'.repeat(50)
  writeFileSync(join(dir, 'app.mjs'), entry)
  writeFileSync(join(dir, 'app.mjs.br'), brotliCompressSync(entry))
  writeFileSync(join(dir, 'app.mjs.gz'), gzipSync(entry))
  writeFileSync(join(dir, 'chunks', 'part-abc123.mjs'), 'export const y = 2')
  writeFileSync(join(dir, 'logo.png'), new Uint8Array([137, 80, 78, 71]))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const serve = staticFiles({
    root: pathToFileURL(`${dir}/`),
    name: /^(?:chunks\/)?[\w.-]+$/,
    immutable: (path) => path.startsWith('chunks/'),
    headers: { 'access-control-allow-origin': '*' },
  })
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    serve(new Request(`http://x.test/${path}`, { method, headers }), path)

  it('sends the brotli copy to a browser, gzip to a client without brotli, the file itself to anyone else', async () => {
    const br = (await get('app.mjs', { 'accept-encoding': 'gzip, deflate, br, zstd' }))!
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(new Uint8Array(await br.arrayBuffer())).toEqual(new Uint8Array(brotliCompressSync(entry)))
    const gz = (await get('app.mjs', { 'accept-encoding': 'gzip' }))!
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    const plain = (await get('app.mjs'))!
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(entry)
    for (const response of [br, gz, plain]) {
      expect(response.headers.get('vary')).toBe('Accept-Encoding')
      expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
    // A file without compressed copies goes as it is, still with Vary (another file may have them).
    const chunk = (await get('chunks/part-abc123.mjs', { 'accept-encoding': 'br' }))!
    expect(chunk.headers.get('content-encoding')).toBeNull()
    expect(await chunk.text()).toBe('export const y = 2')
    // Images are not compressible: no Vary.
    expect((await get('logo.png', { 'accept-encoding': 'br' }))!.headers.get('vary')).toBeNull()
  })

  it('caches hashed names for good and revalidates the others by ETag, one per representation', async () => {
    const chunk = (await get('chunks/part-abc123.mjs'))!
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    const br = (await get('app.mjs', { 'accept-encoding': 'br' }))!
    const gz = (await get('app.mjs', { 'accept-encoding': 'gzip' }))!
    expect(br.headers.get('cache-control')).toBe('public, no-cache')
    const etag = br.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/)
    expect(gz.headers.get('etag')).not.toBe(etag)
    const revalidated = (await get('app.mjs', {
      'accept-encoding': 'br',
      'if-none-match': `W/"nope", ${etag}`,
    }))!
    expect(revalidated.status).toBe(304)
    expect(revalidated.headers.get('etag')).toBe(etag)
    expect(revalidated.headers.get('vary')).toBe('Accept-Encoding')
    expect(await revalidated.text()).toBe('')
    expect(
      (await get('app.mjs', {
        'accept-encoding': 'gzip',
        'if-none-match': etag,
      }))!.status,
    ).toBe(200)
  })

  it('answers HEAD without a body, and null for anything outside the folder or not named as served', async () => {
    const head = (await get('app.mjs', {}, 'HEAD'))!
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    for (const path of ['../package.json', 'chunks/../../x', 'chunks\\x.mjs', '%2e%2e/x', '/etc/passwd', 'missing.mjs', 'app.mjs.br']) {
      expect(await get(path), path).toBeNull()
    }
  })

  it('reads Accept-Encoding with its q-values', () => {
    const names = (header: string | null) => acceptedEncodings(header).map((encoding) => encoding.name)
    expect(names('gzip, deflate, br')).toEqual(['br', 'gzip'])
    expect(names('br;q=0.5, gzip;q=1')).toEqual(['gzip', 'br'])
    expect(names('br;q=0, gzip')).toEqual(['gzip'])
    expect(names('*')).toEqual(['br', 'gzip'])
    expect(names('identity')).toEqual([])
    expect(names(null)).toEqual([])
  })
})
