// Bytes on the wire. The widget: what a page loads before the reader opens it and after the first open, as the server
// sends it (the brotli copies written at build; widget/build.ts measures them). Target (issue 15): ≤ 11 KB before,
// ≤ 80 KB after. Then the texts compressed on the fly (server/http/compress.ts) by Docent on the default store
// (PGlite): identity vs brotli vs gzip bytes and the time to compress, for the demo's llms-full.txt, llms.txt, a page's
// markdown, a search answer and the OpenAPI document. The widget is built first when stale.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createKey } from '../../server/keys/keys.ts'
import { consoleLogger } from '../../server/log.ts'
import { createDocent } from '../../server/mod.ts'
import { BUDGET, buildIfStale, measure } from '../../widget/build.ts'
import { fmt, reportTarget } from '../support.ts'

await buildIfStale()
const sizes = measure()
const kb = (bytes: number) => `${fmt(bytes / 1024, 1)} KB`
console.log(`widget: ${sizes.files.length} scripts; brotli, as the server sends them`)
reportTarget(
  'widget on the wire before the first open',
  kb(sizes.wireBeforeOpen),
  `≤ ${kb(BUDGET.wireBeforeOpenBytes)}`,
  sizes.wireBeforeOpen <= BUDGET.wireBeforeOpenBytes,
)
reportTarget(
  'widget on the wire after the first open',
  kb(sizes.wireAfterOpen),
  `≤ ${kb(BUDGET.wireAfterOpenBytes)}`,
  sizes.wireAfterOpen <= BUDGET.wireAfterOpenBytes,
)

const dataDir = mkdtempSync(join(tmpdir(), 'docent-bench-delivery-'))
const docent = await createDocent(
  {
    dataDir,
    store: { kind: 'pglite' },
    worker: false,
    projects: [{ id: 'demo', organization: 'demo', domain: 'demo', docs: { directory: 'demo/docs', public: true } }],
  },
  { log: consoleLogger('silent') },
)
try {
  const key = (await createKey(docent.context.store, { kind: 'assistant', organization: 'demo', projectId: 'demo' })).secret
  const requests: Array<[string, string, RequestInit?]> = [
    ['llms-full.txt', '/docs/demo/llms-full.txt'],
    ['llms.txt', '/docs/demo/llms.txt'],
    ['page markdown', '/docs/demo/quickstart.md'],
    [
      'search answer (10 results)',
      '/discovery/v1/search/demo',
      {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'How do I roll out a flag to 10% of users?', pageSize: 10 }),
      },
    ],
    ['OpenAPI document', '/openapi.json'],
  ]
  console.log('\ncompressed on the fly (bytes on the wire; median time of 20 requests, the first aside)')
  for (const [name, path, init] of requests) {
    const figures: string[] = []
    for (const encoding of ['identity', 'br', 'gzip']) {
      const times: number[] = []
      let bytes = 0
      for (let i = 0; i < 21; i++) {
        const started = performance.now()
        const response = await docent.app.request(path, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'accept-encoding': encoding },
        })
        bytes = (await response.arrayBuffer()).byteLength
        if (!response.ok) throw new Error(`${path}: ${response.status}`)
        if (i > 0) times.push(performance.now() - started)
      }
      times.sort((a, b) => a - b)
      figures.push(`${encoding} ${kb(bytes).padStart(8)} ${fmt(times[10]!, 2).padStart(6)} ms`)
    }
    console.log(`  ${name.padEnd(28)} ${figures.join('   ')}`)
  }
} finally {
  await docent.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
