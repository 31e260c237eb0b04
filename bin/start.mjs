// npm start: builds what is stale (the widget, the console, the server bundle), then runs the built server in this
// process. One Node start instead of three, and no TypeScript loader on the way to the first request.
//
// package.json runs it as `node --v8-pool-size=1 --expose-gc bin/start.mjs`, for memory (bench/server-memory, the
// demo docs on PGlite). V8's background pool (four threads by default) is where concurrent GC and WebAssembly tier-up
// work: one thread keeps RSS 30-50 MiB lower (10 s after loading 231-236 vs 263 MiB) with no change in throughput
// (bench/http: Docent 376-381 vs 360-385 req/s); a smaller young generation (--max-semi-space-size=2) saved 30 MiB
// more but cost 15-20% of search throughput. `gc` is exposed for server/serve/idle-collector.ts, which gives the
// memory of a burst back once the server is quiet.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { isStale } from './build-if-stale.mjs'
import { buildServer, SERVER_ENTRY, serverIsStale } from './build-server.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
for (const app of ['widget', 'console']) {
  if (!isStale(join(root, app))) continue
  const build = spawnSync(process.execPath, ['--import', 'tsx', join(root, app, 'build.ts'), '--if-stale'], { stdio: 'inherit' })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
if (serverIsStale()) await buildServer()
await import(pathToFileURL(SERVER_ENTRY).href)
