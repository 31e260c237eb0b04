import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createAgentClient } from '../../shared/client.ts'
import { type Runtime, startServer } from '../support/server-process.ts'

const ADMIN = 'svc_AgentRuntimeTestAdminKey00000001'

// The embedded default end to end on the other runtimes (Node is covered in-process): the offline editor edits the
// demo docs in the local bare repository and the review page shows the diff.
describe.each(['deno', 'bun'] as Runtime[])('agent job on %s', (runtime) => {
  test('Replace "Lumen Flags" with "Lumen Toggles" everywhere → completed with a review page', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), `docent-agent-${runtime}-`))
    const server = await startServer(
      runtime,
      { DOCENT_STORE: 'memory', DOCENT_DATA_DIR: dataDir, DOCENT_ADMIN_KEY: ADMIN },
      {
        timeoutMs: 90_000,
      },
    )
    try {
      const client = createAgentClient({ baseUrl: server.url, apiKey: ADMIN, projectId: 'demo' })
      const created = await client.createJob('Replace "Lumen Flags" with "Lumen Toggles" everywhere')
      const job = await client.waitForJob(created.id, { intervalMs: 100, timeoutMs: 90_000 })
      expect(job).toMatchObject({
        status: 'completed',
        error: null,
        model: 'offline-editor',
        prLink: `http://localhost:${server.port}/review/${job.id}`,
      })
      const review = await fetch(`${server.url}/review/${job.id}`)
      expect(review.status).toBe(200)
      const html = await review.text()
      expect(html).toContain('quickstart.mdx')
      expect(html).toContain('Lumen Toggles')
      const types = (await client.events(job.id)).map((event) => event.type)
      expect(types).toEqual(expect.arrayContaining(['run.started', 'commit', 'push', 'pr', 'run.finished']))
    } finally {
      await server.stop()
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 180_000)
})
