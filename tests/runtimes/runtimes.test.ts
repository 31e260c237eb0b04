import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { pgliteDataDir } from '../support/pglite.ts'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'

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
