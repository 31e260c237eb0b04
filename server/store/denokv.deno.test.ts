import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describeStoreConformance } from './conformance.ts'
import { openDenoKvStore } from './denokv.ts'

// Runs under Deno only (npm test runs vitest on Deno for *.deno.test.ts), on a local SQLite-backed KV file.
const dir = await mkdtemp(join(tmpdir(), 'docent-kv-'))
const path = join(dir, 'kv.sqlite')
let shared: Awaited<ReturnType<typeof openDenoKvStore>> | undefined
describeStoreConformance(
  'denokv',
  async () => (shared ??= await openDenoKvStore(path)),
  async () => {
    shared = undefined
    return openDenoKvStore(path)
  },
)
