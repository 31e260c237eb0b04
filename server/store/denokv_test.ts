// The store conformance suite on Deno KV, under `deno test` (npm test runs `deno test -A --no-check` on this file),
// on a local SQLite-backed KV file. The suite's assertions are vitest's `expect`, which works outside vitest's runner.
import { describeStoreConformance } from './conformance.ts'
import { openDenoKvStore } from './denokv.ts'

interface DenoTesting {
  makeTempDir(options: { prefix: string }): Promise<string>
  test(definition: { name: string; fn: () => Promise<void>; sanitizeOps: boolean; sanitizeResources: boolean }): void
}
const deno = (globalThis as unknown as { Deno: DenoTesting }).Deno

const path = `${await deno.makeTempDir({ prefix: 'docent-kv-' })}/kv.sqlite`
let shared: Awaited<ReturnType<typeof openDenoKvStore>> | undefined
let suite = ''
describeStoreConformance(
  'denokv',
  async () => (shared ??= await openDenoKvStore(path)),
  async () => {
    shared = undefined
    return openDenoKvStore(path)
  },
  {
    describe: (name, body) => {
      suite = name
      body()
      suite = ''
    },
    // The store stays open across tests (as under vitest), so Deno's per-test resource checks do not apply.
    test: (name, fn) => deno.test({ name: `${suite}: ${name}`, fn, sanitizeOps: false, sanitizeResources: false }),
  },
)
