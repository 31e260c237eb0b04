import { afterAll, describe, test } from 'vitest'
import { describeStoreConformance } from '../../server/store/conformance.ts'
import { openPostgresStore } from '../../server/store/sql/postgres.ts'
import type { Store } from '../../server/store/types.ts'
import { startPostgres } from '../support/postgres.ts'

const server = await startPostgres()

if ('skip' in server) {
  describe('store conformance: postgres', () => test.skip(server.skip, () => {}))
} else {
  const url = await server.createDatabase('docent_conformance')
  let shared: Store | undefined
  const opened: Store[] = []
  describeStoreConformance(
    'postgres',
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
