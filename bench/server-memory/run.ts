// Memory of the real server on the default store: `npm start` (bin/start.mjs, the built server) on PGlite, spawned on a
// fresh data directory (the first start: the database is created, the demo repository seeded) and again on the same
// directory (the second start). For each start it prints the peak RSS (VmHWM, the kernel's high-water mark) and the
// idle RSS once the docs are loaded, a search has run and the server has been left alone IDLE_SECONDS, with its
// parts: the JS heap, array buffers (typed arrays and Buffers) and the rest (code, PGlite's WebAssembly memory, native
// allocations).
// Targets (issue 15): demo docs ≤ 200 MiB idle and ≤ 300 MiB peak on a first start; 10k pages ≤ 350 MiB idle.
// `node --import tsx bench/server-memory/run.ts [demo|10k ...]`
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { generateSite } from '../search-speed/generate.ts'
import { type ServerProcess, startServer } from '../../tests/support/server-process.ts'
import { reportTarget } from '../support.ts'

const MiB = 2 ** 20
const GENERATED = '/tmp/docent-bench-10k-pages'
const cases = [
  { name: 'demo', docsDir: 'demo/docs', idleTarget: 200, peakTarget: 300 },
  { name: '10k', docsDir: GENERATED, idleTarget: 350, peakTarget: undefined },
]

await import('../../bin/build-server.mjs').then(({ serverIsStale, buildServer }) => (serverIsStale() ? buildServer() : undefined))
if (!existsSync(`${GENERATED}/docs.json`)) {
  for (const [path, text] of generateSite(10_000)) {
    mkdirSync(dirname(`${GENERATED}/${path}`), { recursive: true })
    writeFileSync(`${GENERATED}/${path}`, text)
  }
}

function status(pid: number): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? Number.NaN) * 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

/**
 * How long the server is left alone before its idle RSS is read. V8 gives memory back on its own once a process stops
 * allocating (its memory reducer: collections with compaction, then the freed pages unmapped), 30 to 90 s into a quiet
 * period here; read 10 s after loading, the demo server is 40-60 MiB above what it settles at. Both are printed.
 */
const IDLE_SECONDS = Number(process.env.IDLE_SECONDS ?? 90)

/** Waits until the docs are indexed (a search finds something), then until RSS settles; returns RSS then. */
async function loaded(server: ServerProcess): Promise<number> {
  for (const deadline = Date.now() + 180_000; ; ) {
    const response = await fetch(`${server.url}/discovery/v1/search/demo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'how do flags and segments work' }),
    })
    const hits = (await response.json()) as unknown
    if (response.ok && Array.isArray(hits) && hits.length > 0) break
    if (Date.now() > deadline) throw new Error(`docs did not load: ${response.status} ${JSON.stringify(hits).slice(0, 200)}`)
    await new Promise((done) => setTimeout(done, 200))
  }
  // Background work done (the demo repository's first commit, the first docs check): RSS steady for a few seconds.
  let last = 0
  for (let i = 0; i < 30; i++) {
    await new Promise((done) => setTimeout(done, 500))
    const { rss } = status(server.child.pid!)
    if (i >= 6 && Math.abs(rss - last) < MiB) break
    last = rss
  }
  return status(server.child.pid!).rss
}

async function parts(server: ServerProcess) {
  const before = server.output().length
  server.child.kill('SIGUSR2')
  for (let i = 0; i < 50; i++) {
    const line = /docent-memory (\{.*\})/.exec(server.output().slice(before))
    if (line) return JSON.parse(line[1]!) as { heapUsed: number; arrayBuffers: number }
    await new Promise((done) => setTimeout(done, 50))
  }
  throw new Error('the server did not report its memory')
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(0)} MiB`
const ratioOf = (value: number, target: number) => `${mib(value)} (ratio ${(value / MiB / target).toFixed(2)})`
const wanted = process.argv.slice(2)
for (const { name, docsDir, idleTarget, peakTarget } of cases) {
  if (wanted.length > 0 && !wanted.includes(name)) continue
  const dataDir = mkdtempSync(join(tmpdir(), 'docent-memory-'))
  try {
    for (const start of ['first', 'second']) {
      const server = await startServer(
        'npm-start',
        {
          DOCENT_STORE: 'pglite',
          DOCENT_DATA_DIR: dataDir,
          DOCENT_DOCS_DIR: resolve(docsDir),
          NODE_OPTIONS: `--import=${resolve('bench/server-memory/report.mjs')}`,
        },
        { timeoutMs: 180_000 },
      )
      try {
        const afterLoading = await loaded(server)
        await new Promise((done) => setTimeout(done, IDLE_SECONDS * 1000))
        const { rss, peak } = status(server.child.pid!)
        const { heapUsed, arrayBuffers } = await parts(server)
        console.log(
          `${name.padEnd(5)} ${start.padEnd(6)} start: idle RSS ${mib(rss)} after ${IDLE_SECONDS} s (JS heap ${mib(heapUsed)}, ` +
            `array buffers ${mib(arrayBuffers)}, rest ${mib(rss - heapUsed - arrayBuffers)}); ${mib(afterLoading)} once loaded; peak ${mib(peak)}`,
        )
        reportTarget(`${name} docs, ${start} start: idle RSS`, ratioOf(rss, idleTarget), `≤ ${idleTarget} MiB`, rss / MiB <= idleTarget)
        if (start === 'first' && peakTarget) {
          reportTarget(`${name} docs, first start: peak RSS`, ratioOf(peak, peakTarget), `≤ ${peakTarget} MiB`, peak / MiB <= peakTarget)
        }
      } finally {
        await server.stop()
      }
    }
  } catch (error) {
    console.log(`${name}: failed: ${(error as Error).message.split('\n').slice(0, 5).join(' ')}`)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}
