import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { buildConsoleIfStale } from '../../console/build.ts'
import { pgliteDataDir } from '../support/pglite.ts'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'

// The console on each runtime's real entrypoint and the default store (PGlite, migration 4): the app is served
// (brotli), a sign-in sets the cookie, the cookie reaches the admin API and streams a job's events, sign-out ends it.

const ADMIN = 'svc_ConsoleRuntimeAdminKey0000000001'

for (const runtime of ['node', 'deno', 'bun'] as Runtime[]) {
  describe(`console on ${runtime}`, () => {
    let server: ServerProcess
    let dataDir: string
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `docent-console-${runtime}-`))
      await Promise.all([pgliteDataDir(join(dataDir, 'pglite')), buildConsoleIfStale()])
      server = await startServer(runtime, { DOCENT_DATA_DIR: dataDir, DOCENT_ADMIN_KEY: ADMIN, DOCENT_WORKER: 'false' })
    }, 180_000)
    afterAll(async () => {
      await server?.stop()
      await rm(dataDir, { recursive: true, force: true })
    })

    test('app, sign-in, the cookie on the admin API and its live events, sign-out', async () => {
      const html = await fetch(`${server.url}/console/demo/overview`)
      expect(html.status).toBe(200)
      const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(await html.text())![1]!
      const asset = await fetch(`${server.url}${script}`, { headers: { 'accept-encoding': 'br' } })
      expect(asset.headers.get('content-encoding')).toBe('br')
      expect((await asset.text()).length).toBeGreaterThan(1000)

      const signIn = await fetch(`${server.url}/console/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-docent-console': '1' },
        body: JSON.stringify({ key: ADMIN }),
      })
      expect(signIn.status).toBe(200)
      const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!
      const job = await fetch(`${server.url}/v2/agent/demo/job`, {
        method: 'POST',
        headers: { cookie, 'x-docent-console': '1', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Fix misspellings' }),
      })
      expect(job.status).toBe(200)
      const { id } = (await job.json()) as { id: string }
      // No worker here: the job stays active, and the stream delivers its first event and keeps going.
      const events = await fetch(`${server.url}/v2/agent/demo/job/${id}/events`, { headers: { cookie, accept: 'text/event-stream' } })
      expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/)
      const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader()
      let text = ''
      while (!text.includes('event: job')) text += (await reader.read()).value ?? ''
      await reader.cancel()
      expect(text).toMatch(/event: agent\nid: 1\ndata: \{[^\n]*job created: Fix misspellings/)

      const out = await fetch(`${server.url}/console/session`, { method: 'DELETE', headers: { cookie, 'x-docent-console': '1' } })
      expect(out.status).toBe(204)
      expect((await fetch(`${server.url}/v2/agent/demo/jobs`, { headers: { cookie } })).status).toBe(401)
    })
  })
}
