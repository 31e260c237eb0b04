import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import { describeStoreConformance } from '../../server/store/conformance.ts'
import { openPgliteStore } from '../../server/store/sql/pglite.ts'
import type { Store } from '../../server/store/types.ts'
import { pgliteDataDir } from '../support/pglite.ts'

// The embedded default store as `npm run start:deno` opens it: PGlite under Deno (needs --allow-read/--allow-write).
const root = await mkdtemp(join(tmpdir(), 'docent-pglite-deno-'))
const dir = await pgliteDataDir(join(root, 'pglite'))
let shared: Store | undefined
let last: Store | undefined

describeStoreConformance(
  'pglite on deno',
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
