import { boot, listenFailure, shutDown } from './boot.ts'
import { configFilePath, readConfigText } from '../config-from-env.ts'

declare const Bun: {
  env: Record<string, string | undefined>
  file(path: string): { exists(): Promise<boolean>; text(): Promise<string> }
  // Bun's stop resolves once the connections have ended (a promise since Bun 1.1).
  serve(options: {
    port: number
    hostname?: string
    idleTimeout?: number
    fetch: (request: Request, server: { requestIP(request: Request): { address: string } | null }) => Response | Promise<Response>
  }): { port: number; stop(force?: boolean): Promise<void> | undefined }
  version: string
}

const { docent, announce } = await readConfigText(Bun.env, (path) => Bun.file(path).text())
  .then((text) => boot({ env: Bun.env, configText: text, configPath: configFilePath(Bun.env), runtime: `bun ${Bun.version}` }))
  .catch((error) => {
    console.error(error?.message ?? error)
    process.exit(1)
  })

const { host, port } = docent.config
const server = await Promise.resolve()
  .then(() =>
    Bun.serve({
      port,
      hostname: host,
      // Streams of long answers and agent polls stay open longer than Bun's 10 s default.
      idleTimeout: 255,
      fetch: (request, srv) => docent.app.fetch(request, { ip: srv.requestIP(request)?.address }),
    }),
  )
  .catch(async (error) => {
    console.error(listenFailure(error, host, port))
    await docent.stop()
    process.exit(1)
  })
announce(server.port)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void shutDown(docent, { drain: async () => await server.stop(false), cut: () => void server.stop(true) }).finally(() => process.exit(0))
  })
}
