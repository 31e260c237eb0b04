// The Node entry (npm start runs its bundle, server/dist/node.mjs). It loads in two steps: this file, which starts
// compiling PGlite's WebAssembly on V8's background thread where the embedded store will open, then the rest of the
// server (node-server.ts), which the main thread parses meanwhile. Before, PGlite compiled only once every module had
// loaded, and the main thread waited for it (bench/startup).
import { readFile } from 'node:fs/promises'
import { DEFAULT_STORE_KIND, storeKindFrom } from '../store/kind.ts'
import { compilePgliteWasm } from '../store/sql/pglite-wasm.ts'
import { configFilePath, readConfigText } from '../config-from-env.ts'

// Keeps Node's event loop polling until the server listens. With no handle active (while PGlite's WebAssembly
// compiles, say) the loop stops polling and Node waits for all of V8's background work before it polls again
// (NodePlatform::DrainTasks): the rest of the start ran inside that wait, and the first request waited for PGlite's
// optimizing compiler to finish its hot functions, 0.5-0.7 s after listening (bench/startup).
const startingUp = setInterval(() => {}, 60_000)
const configPath = configFilePath(process.env)
const configText = await readConfigText(process.env, (path) => readFile(path, 'utf8')).catch((error) => {
  console.error(error?.message ?? error)
  process.exit(1)
})
if ((storeKindFrom(process.env, configFileObject(configText)) ?? DEFAULT_STORE_KIND) === 'pglite') void compilePgliteWasm()
const { serveOnNode } = await import('./node-server.ts')
await serveOnNode(configText, configPath)
clearInterval(startingUp)

/** The config file as an object, or {} (boot reports a file that is not a JSON object). */
function configFileObject(text: string | undefined): Record<string, unknown> {
  try {
    const value: unknown = text === undefined ? {} : JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}
