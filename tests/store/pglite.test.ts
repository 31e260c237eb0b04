import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { describeStoreConformance } from '../../server/store/conformance.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import type { Store } from '../../server/store/types.ts'

// One PGlite for the whole file: a fresh data directory runs initdb (seconds), so no test opens its own.
const dir = await mkdtemp(join(tmpdir(), 'docent-pglite-'))
let shared: Store | undefined
let last: Store | undefined

describeStoreConformance(
  'pglite',
  async () => (shared ??= await openPgliteStore(dir)),
  async () => {
    shared = undefined
    return (last = await openPgliteStore(dir))
  },
)

afterAll(async () => {
  await shared?.close().catch(() => {})
  await last?.close().catch(() => {})
  await rm(dir, { recursive: true, force: true })
})
