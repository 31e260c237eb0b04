import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pgliteDataDir } from '../support/pglite.ts'
import { RUNTIME_COMMANDS, type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'

const ADMIN = 'svc_RuntimeSmokeAdminKey000000000001'
const ASSISTANT = 'svc_dsc_RuntimeSmokeAssistantKey00000001'

/** The same smoke test on each runtime: the real entrypoint starts on the default (PGlite) store, serves, and enforces auth. */
for (const runtime of ['node', 'deno', 'bun'] as Runtime[]) {
  describe(`runtime: ${runtime}`, () => {
    let server: ServerProcess
    let dataDir: string
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `docent-${runtime}-`))
      // A migrated data directory copied from a template: this tests the runtime, not initdb (bench/startup times that).
      await pgliteDataDir(join(dataDir, 'pglite'))
      server = await startServer(runtime, { DOCENT_DATA_DIR: dataDir, DOCENT_ADMIN_KEY: ADMIN, DOCENT_ASSISTANT_KEY: ASSISTANT })
    }, 120_000)
    afterAll(async () => {
      await server?.stop()
      await rm(dataDir, { recursive: true, force: true })
    })

    test('a file DOCENT_CONFIG names that cannot be read stops start-up, named; it never falls back to the demo', async () => {
      for (const [named, why] of [
        [join(dataDir, 'missing.json'), 'no such file'],
        [dataDir, 'it is a directory'],
      ]) {
        const [command, ...args] = RUNTIME_COMMANDS[runtime]
        const started = spawnSync(command!, args, {
          env: { ...process.env, DOCENT_CONFIG: named, DOCENT_DATA_DIR: join(dataDir, 'other'), PORT: '0' },
          encoding: 'utf8',
          timeout: 60_000,
        })
        expect(started.status, started.stderr).toBe(1)
        expect(started.stderr).toContain(`DOCENT_CONFIG: cannot read the config file ${named}: ${why}`)
        expect(started.stdout).not.toContain('Demo keys')
      }
    }, 120_000)

    test('a port in use stops start-up with one line naming the address, after no banner', async () => {
      const [command, ...args] = RUNTIME_COMMANDS[runtime]
      const otherDir = join(dataDir, 'second')
      await pgliteDataDir(join(otherDir, 'pglite'))
      const started = spawnSync(command!, args, {
        env: { ...process.env, DOCENT_DATA_DIR: otherDir, PORT: String(server.port), DOCENT_ADMIN_KEY: ADMIN },
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(started.status, started.stderr).toBe(1)
      expect(started.stderr.trim()).toBe(
        `cannot listen on 127.0.0.1:${server.port}: the port is in use (another server, or an earlier Docent still running)`,
      )
      expect(started.stdout).not.toContain('listening')
    }, 120_000)

    test('serves /healthz and prints its banner', async () => {
      expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true })
      expect(server.output()).toContain(`Docent listening on http://localhost:${server.port} (${runtime}`)
    })

    test('auth round trip: no key 401, assistant key 403, admin key passes auth', async () => {
      const path = `${server.url}/v2/agent/demo/job/no-such-job`
      const none = await fetch(path)
      expect(none.status).toBe(401)
      expect((await none.json()).error).toBeTruthy()
      const assistant = await fetch(path, { headers: { authorization: `Bearer ${ASSISTANT}` } })
      expect(assistant.status).toBe(403)
      const admin = await fetch(path, { headers: { authorization: `Bearer ${ADMIN}` } })
      expect(admin.status).toBe(404)
      expect(await admin.json()).toEqual({ error: expect.stringMatching(/job|not found/), code: 'not_found' })
    })

    test('answers a question on the v2 endpoint and keeps the thread in the store', async () => {
      const response = await fetch(`${server.url}/discovery/v2/assistant/demo/message`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          fp: 'smoke',
          messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install the SDK?' }] }],
        }),
      })
      expect(response.status).toBe(200)
      const stream = await response.text()
      expect(stream).toContain('"type":"source-url"')
      expect(stream).toContain('data: [DONE]')
      const threadId = response.headers.get('x-thread-id')!
      const thread = await (
        await fetch(`${server.url}/v2/assistant/demo/threads/${threadId}`, { headers: { authorization: `Bearer ${ADMIN}` } })
      ).json()
      expect(thread.messages.map((message: { role: string }) => message.role)).toEqual(['user', 'assistant'])
    })

    test('compresses text above 1 KB by Accept-Encoding, and leaves tiny bodies, HEAD and the SSE stream alone', async () => {
      const identity = await raw(`${server.url}/llms-full.txt`, {})
      expect(identity.status).toBe(200)
      expect(identity.headers['content-encoding']).toBeUndefined()
      expect(identity.body.length).toBeGreaterThan(1024)
      const text = identity.body.toString()
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
        ['br;q=0, gzip', 'gzip', gunzipSync],
        ['br;q=0.5, gzip;q=0.8', 'gzip', gunzipSync],
      ] as const) {
        for (const path of ['/llms-full.txt', '/llms.txt', '/docs/demo/quickstart.md', '/openapi.json']) {
          const plain = path === '/llms-full.txt' ? identity : await raw(`${server.url}${path}`, {})
          const compressed = await raw(`${server.url}${path}`, { 'accept-encoding': accept })
          expect(compressed.headers['content-encoding'], `${path} ${accept}`).toBe(encoding)
          expect(compressed.headers.vary).toMatch(/accept-encoding/i)
          expect(Number(compressed.headers['content-length'])).toBe(compressed.body.length)
          expect(compressed.body.length).toBeLessThan(plain.body.length / 2)
          expect(decode(compressed.body).toString()).toBe(plain.body.toString())
        }
      }
      // q=0 for everything but identity, and identity alone: the bytes as they are.
      for (const accept of ['identity', 'gzip;q=0, br;q=0', '*;q=0, identity']) {
        const plain = await raw(`${server.url}/llms-full.txt`, { 'accept-encoding': accept })
        expect(plain.headers['content-encoding']).toBeUndefined()
        expect(plain.body.toString()).toBe(text)
      }
      // The ETag of a compressed copy is weak, and revalidates.
      const etag = (await raw(`${server.url}/llms-full.txt`, { 'accept-encoding': 'gzip' })).headers.etag as string
      expect(etag).toMatch(/^W\//)
      expect((await raw(`${server.url}/llms-full.txt`, { 'accept-encoding': 'gzip', 'if-none-match': etag })).status).toBe(304)
      const head = await raw(`${server.url}/llms-full.txt`, { 'accept-encoding': 'br, gzip' }, 'HEAD')
      expect(head.status).toBe(200)
      expect(head.headers['content-encoding']).toBeUndefined()
      expect(head.body.length).toBe(0)
      const tiny = await raw(`${server.url}/healthz`, { 'accept-encoding': 'br, gzip' })
      expect(tiny.headers['content-encoding']).toBeUndefined()
      expect(JSON.parse(tiny.body.toString())).toEqual({ ok: true })
      // The answer's stream is sent as it is written, never buffered into a compressor.
      const stream = await raw(
        `${server.url}/discovery/v2/assistant/demo/message`,
        { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json', 'accept-encoding': 'br, gzip' },
        'POST',
        JSON.stringify({ fp: 'gz', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install the SDK?' }] }] }),
      )
      expect(stream.headers['content-type']).toContain('text/event-stream')
      expect(stream.headers['content-encoding']).toBeUndefined()
      expect(stream.body.toString()).toContain('data: [DONE]')
    })

    test('bad JSON → 400 and an oversized body → 413', async () => {
      const post = (body: string) =>
        fetch(`${server.url}/v2/agent/demo/job`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
          body,
        })
      const garbage = await post('{nope')
      expect(garbage.status).toBe(400)
      const big = await post(JSON.stringify({ prompt: 'x'.repeat(2 * 1024 * 1024) }))
      expect(big.status).toBe(413)
    })
  })
}

/** One request with node:http, so the bytes on the wire are seen as sent (fetch would decompress them). */
function raw(
  url: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }))
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end(body)
  })
}
