import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUDGET } from '../../widget/build.ts'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'
import { browserSkipReason, ensureWidgetBuilt, launchBrowser } from './support.ts'

// The widget as it travels, from the real server process on each runtime: the brotli or gzip copy the build wrote, by
// Accept-Encoding, with Vary; hashed chunks immutable; the entry files revalidated by ETag. In Chromium, the bytes on
// the wire before and after the first open stay within the targets.

const skip = browserSkipReason()

/** A raw request (no client-side decompression), so the bytes and headers are what the server sent. */
function raw(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string>; bytes: number }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      let bytes = 0
      response.on('data', (chunk: Buffer) => (bytes += chunk.length))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers as Record<string, string>, bytes }))
    })
      .on('error', reject)
      .end()
  })
}

describe.each<Runtime>(['node', 'deno', 'bun'])('widget delivery on %s', (runtime) => {
  let server: ServerProcess

  beforeAll(async () => {
    await ensureWidgetBuilt()
    server = await startServer(runtime, { DOCENT_STORE: 'memory' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('sends the precompressed copy by Accept-Encoding, with Vary, immutable chunks and ETag revalidation', async () => {
    const plain = await raw(`${server.url}/widget/docent.mjs`)
    const br = await raw(`${server.url}/widget/docent.mjs`, { 'accept-encoding': 'gzip, deflate, br, zstd' })
    const gz = await raw(`${server.url}/widget/docent.mjs`, { 'accept-encoding': 'gzip' })
    expect([plain.status, br.status, gz.status]).toEqual([200, 200, 200])
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(br.headers['content-encoding']).toBe('br')
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(br.bytes).toBeLessThan(gz.bytes)
    expect(gz.bytes).toBeLessThan(plain.bytes / 2)
    for (const response of [plain, br, gz]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i)
      expect(response.headers['cache-control']).toBe('public, no-cache')
      expect(response.headers['access-control-allow-origin']).toBe('*')
    }
    const revalidated = await raw(`${server.url}/widget/docent.mjs`, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! })
    expect(revalidated.status).toBe(304)
    expect(revalidated.bytes).toBe(0)

    const entry = await (await fetch(`${server.url}/widget/docent.mjs`)).text()
    const chunk = /\.\/(chunks\/lit-[\w-]+\.mjs)/.exec(entry)?.[1]
    expect(chunk).toBeDefined()
    const lazy = await raw(`${server.url}/widget/${chunk}`, { 'accept-encoding': 'br' })
    expect(lazy.headers['content-encoding']).toBe('br')
    expect(lazy.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })
})

describe.skipIf(skip)('widget bytes on the wire in Chromium', () => {
  let server: ServerProcess

  beforeAll(async () => {
    await ensureWidgetBuilt()
    server = await startServer('node', { DOCENT_STORE: 'memory' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('stays within 11 KB before the first open and 80 KB after', async () => {
    const browser = await launchBrowser()
    try {
      const page = await browser.newPage()
      const wire = () =>
        page.evaluate(() =>
          (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
            .filter((entry) => entry.name.includes('/widget/'))
            .reduce((sum, entry) => sum + entry.encodedBodySize, 0),
        )
      await page.goto(`${server.url}/quickstart`)
      const chat = page.locator('docent-chat')
      await chat.locator('.launcher').waitFor()
      const before = await wire()
      await chat.locator('.launcher').click()
      await chat.getByRole('dialog').waitFor()
      const after = await wire()
      console.log(`widget on the wire: ${(before / 1024).toFixed(1)} KB before the first open, ${(after / 1024).toFixed(1)} KB after`)
      expect(before).toBeGreaterThan(0)
      expect(before).toBeLessThanOrEqual(BUDGET.wireBeforeOpenBytes)
      expect(after).toBeLessThanOrEqual(BUDGET.wireAfterOpenBytes)
    } finally {
      await browser.close()
    }
  })
})
