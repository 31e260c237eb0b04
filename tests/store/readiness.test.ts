// /readyz: whether the server can do its work (the store answers, docs are loaded), where /healthz only says the
// process answers. On the memory store for the docs' states, and on a real PostgreSQL that goes away.
import { afterAll, expect, test } from 'vitest'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import { DEMO_DOCS } from '../support/app.ts'
import { startPostgres } from '../support/postgres.ts'

const project = (id: string, directory: string) => ({ id, organization: 'acme', domain: `${id}.example`, docs: { directory } })
const silent = { log: consoleLogger('silent') }

async function readiness(app: { request(path: string): Response | Promise<Response> }) {
  const response = await app.request('/readyz')
  return { status: response.status, body: await response.json(), retryAfter: response.headers.get('retry-after') }
}

test('ready once the docs are loaded; not before, nor when no project has docs to answer from', async () => {
  const docent = await createDocent({ store: { kind: 'memory' }, worker: false, projects: [project('docs', DEMO_DOCS)] }, silent)
  // Before start, nothing has loaded: an orchestrator must not send readers yet.
  expect(await readiness(docent.app)).toEqual({
    status: 503,
    body: { error: 'not ready: project docs: docs still loading', code: 'unavailable' },
    retryAfter: '5',
  })
  await docent.start()
  await docent.context.search.embedded!('docs')
  expect(await readiness(docent.app)).toMatchObject({ status: 200, body: { ok: true } })
  expect((await docent.app.request('/healthz')).status).toBe(200)
  await docent.stop()

  const broken = await createDocent({ store: { kind: 'memory' }, worker: false, projects: [project('docs', '/no/such/docs')] }, silent)
  await broken.start()
  await broken.context.search.embedded!('docs')
  const failed = await readiness(broken.app)
  expect(failed.status).toBe(503)
  // The cause is logged, never sent: the public answer names the project and the kind of trouble.
  expect(failed.body.error).toBe('not ready: project docs: docs failed to load (see the log)')
  expect(JSON.stringify(failed.body)).not.toContain('/no/such/docs')
  expect((await broken.app.request('/healthz')).status).toBe(200)
  await broken.stop()
})

test('one project of two without docs: ready, and the project is named as degraded', async () => {
  const docent = await createDocent(
    { store: { kind: 'memory' }, worker: false, projects: [project('docs', DEMO_DOCS), project('beta', '/no/such/docs')] },
    silent,
  )
  await docent.start()
  await Promise.all(['docs', 'beta'].map((id) => docent.context.search.embedded!(id)))
  expect(await readiness(docent.app)).toMatchObject({
    status: 200,
    body: { ok: true, degraded: ['project beta: docs failed to load (see the log)'] },
  })
  await docent.stop()
})

test('a store that fails or hangs: not ready, named, while /healthz still answers', async () => {
  const docent = await createDocent({ store: { kind: 'memory' }, worker: false, projects: [project('docs', DEMO_DOCS)] }, silent)
  await docent.start()
  await docent.context.search.embedded!('docs')
  const { store } = docent.context
  store.ping = () => Promise.reject(new Error('connection refused'))
  expect(await readiness(docent.app)).toMatchObject({ status: 503, body: { error: 'not ready: the store failed (see the log)' } })
  store.ping = () => new Promise(() => {})
  expect(await readiness(docent.app)).toMatchObject({ status: 503, body: { error: 'not ready: the store did not answer within 2 s' } })
  expect((await docent.app.request('/healthz')).status).toBe(200)
  await docent.stop()
}, 10_000)

const postgres = await startPostgres()
afterAll(async () => {
  if (!('skip' in postgres)) await postgres.stop()
})

test.skipIf('skip' in postgres)(
  'PostgreSQL going away makes the server not ready; /healthz says the process still answers',
  async () => {
    if ('skip' in postgres) return
    const url = await postgres.createDatabase('readyz')
    const store = await openPostgresStore(url)
    const docent = await createDocent({ worker: false, projects: [project('docs', DEMO_DOCS)] }, { ...silent, store })
    await docent.start()
    await docent.context.search.embedded!('docs')
    expect(await readiness(docent.app)).toMatchObject({ status: 200, body: { ok: true } })
    // Stopping the server (or, on a shared DATABASE_URL, dropping the test's database) takes the store away.
    await postgres.stop()
    const gone = await readiness(docent.app)
    expect(gone.status).toBe(503)
    expect(gone.body.error).toMatch(/^not ready: the store (failed \(see the log\)|did not answer within 2 s)$/)
    expect((await docent.app.request('/healthz')).status).toBe(200)
    await docent.stop().catch(() => {})
  },
  60_000,
)
