// The server on Node, loaded by the entry (node.ts) once PGlite's WebAssembly is compiling: config, Docent, the HTTP
// server, its timeouts and signals, and the idle collector.
import { serve } from '@hono/node-server'
import { boot } from './boot.ts'
import { startIdleCollector } from './idle-collector.ts'

/** Starts Docent and listens; resolves once the server is bound. */
export async function serveOnNode(configText: string | undefined): Promise<void> {
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

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.close()
      collector?.stop()
      void docent.stop().finally(() => process.exit(0))
    })
  }
}
