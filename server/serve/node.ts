import { readFile } from 'node:fs/promises'
import { serve } from '@hono/node-server'
import { boot } from './boot.ts'

const configText = await readFile(process.env.DOCENT_CONFIG ?? 'docent.config.json', 'utf8').catch(() => undefined)
const docent = await boot({ env: process.env, configText, runtime: `node ${process.version}` }).catch((error) => {
  console.error(error?.message ?? error)
  process.exit(1)
})

const server = serve({
  port: docent.config.port,
  fetch: (request, env) => docent.app.fetch(request, { ip: env.incoming.socket.remoteAddress }),
})

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close()
    void docent.stop().finally(() => process.exit(0))
  })
}
