// The conformance suite on the two SQL stores, shared by the Node (`*.test.ts`) and Deno (`*.deno.test.ts`) files.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, test } from 'vitest'
import { describeStoreConformance } from '../../server/store/conformance.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { pgliteDataDir } from '../support/pglite.ts'
import { startPostgres } from '../support/postgres.ts'

/** One PGlite for the whole file, on a copy of the migrated template (a fresh directory would run initdb: seconds). */
export async function describePgliteConformance(name: string) {
  const root = await mkdtemp(join(tmpdir(), 'docent-pglite-'))
  const dir = await pgliteDataDir(join(root, 'pglite'))
  let shared: Store | undefined
  let last: Store | undefined
  describeStoreConformance(
    name,
    async () => (shared ??= await openPgliteStore(dir)),
    async () => {
      shared = undefined
      return (last = await openPgliteStore(dir))
    },
  )
  afterAll(async () => {
    await shared?.close().catch(() => {})
    await last?.close().catch(() => {})
    await rm(root, { recursive: true, force: true })
  })
}

/** The store on a real PostgreSQL server (a database of its own); reopen is a new connection pool. */
export async function describePostgresConformance(name: string) {
  const server = await startPostgres()
  if ('skip' in server) {
    describe(`store conformance: ${name}`, () => test.skip(server.skip, () => {}))
    return
  }
  const url = await server.createDatabase('docent_conformance')
  let shared: Store | undefined
  const opened: Store[] = []
  describeStoreConformance(
    name,
    async () => (shared ??= await openPostgresStore(url)),
    async () => {
      shared = undefined
      const store = await openPostgresStore(url)
      opened.push(store)
      return store
    },
  )
  afterAll(async () => {
    for (const store of [shared, ...opened]) await store?.close().catch(() => {})
    await server.stop()
  })
}
