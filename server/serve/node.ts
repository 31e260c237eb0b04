import { readFile } from 'node:fs/promises'
import { serve } from '@hono/node-server'
import { boot } from './boot.ts'
import { startIdleCollector } from './idle-collector.ts'

// Keeps Node's event loop polling until the server listens. With no handle active (while PGlite's WebAssembly
// compiles, say) the loop stops polling and Node waits for all of V8's background work before it polls again
// (NodePlatform::DrainTasks): the rest of the start ran inside that wait, and the first request waited for PGlite's
// optimizing compiler to finish its hot functions, 0.5-0.7 s after listening (bench/startup).
const startingUp = setInterval(() => {}, 60_000)
const configText = await readFile(process.env.DOCENT_CONFIG ?? 'docent.config.json', 'utf8').catch(() => undefined)
const docent = await boot({ env: process.env, configText, runtime: `node ${process.version}` }).catch((error) => {
  console.error(error?.message ?? error)
  process.exit(1)
})

const { limits } = docent.config
const collector = startIdleCollector(() => process.memoryUsage().heapUsed)
const server = serve({
  port: docent.config.port,
  hostname: docent.config.host,
  fetch: (request, env) => {
    collector?.noteRequest()
    return docent.app.fetch(request, { ip: env.incoming.socket.remoteAddress })
  },
  serverOptions: {
    // Slow clients (slowloris): the headers within headersSeconds, the whole request within bodySeconds more. Node checks
    // these every connectionsCheckingInterval (30 s by default, which let a client hold a connection for 88 s).
    headersTimeout: limits.headersSeconds * 1000,
    requestTimeout: (limits.headersSeconds + limits.bodySeconds) * 1000,
    connectionsCheckingInterval: 1000,
  },
})
clearInterval(startingUp)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close()
    collector?.stop()
    void docent.stop().finally(() => process.exit(0))
  })
}
