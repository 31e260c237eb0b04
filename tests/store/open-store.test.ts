import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'
import { pgliteDataDir } from '../support/pglite.ts'
import { startPostgres } from '../support/postgres.ts'

// The configured SQL stores behind the real app: a job made over HTTP is stored, listed and still there after a restart.
const dirs: string[] = []
const server = await startPostgres()
afterAll(async () => {
  if (!('skip' in server)) await server.stop()
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

async function roundTrip(store: { kind: 'pglite' } | { kind: 'postgres'; url: string }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'docent-open-store-'))
  dirs.push(dataDir)
  if (store.kind === 'pglite') await pgliteDataDir(join(dataDir, 'pglite'))
  const first = await testDocent({ store, dataDir })
  expect(first.store.kind).toBe(store.kind)
  const created = await first.app.request(
    '/v2/agent/demo/job',
    json({ prompt: 'Fix the typo on the quickstart page' }, bearer(first.keys.admin)),
  )
  expect(created.status).toBe(200)
  const { id } = (await created.json()) as { id: string }
  expect((await first.app.request(`/v2/agent/demo/job/${id}`, { headers: bearer(first.keys.admin) })).status).toBe(200)
  await first.docent.stop()

  const second = await testDocent({ store, dataDir })
  const again = await second.app.request(`/v2/agent/demo/job/${id}`, { headers: bearer(second.keys.admin) })
  expect(again.status).toBe(200)
  expect(await again.json()).toMatchObject({ id, status: 'active' })
  await second.docent.stop()
  return dataDir
}

describe('the app on the SQL stores', () => {
  test('pglite keeps its data in <dataDir>/pglite', async () => {
    const dataDir = await roundTrip({ kind: 'pglite' })
    expect((await stat(join(dataDir, 'pglite', 'PG_VERSION'))).isFile()).toBe(true)
  })

  if ('skip' in server) {
    test.skip(`postgres: ${server.skip}`, () => {})
  } else {
    test('postgres (DATABASE_URL)', async () => {
      await roundTrip({ kind: 'postgres', url: await server.createDatabase('docent_app') })
    })
  }
})
