// npm start: builds what is stale (the widget, the console, the server bundle), then runs the built server in this
// process. One Node start instead of three, and no TypeScript loader on the way to the first request.
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
