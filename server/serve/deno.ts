import { boot, listenFailure, shutDown } from './boot.ts'
import { configFilePath, readConfigText } from '../config-from-env.ts'

declare const Deno: {
  env: { toObject(): Record<string, string> }
  readTextFile(path: string): Promise<string>
  serve(
    options: { port: number; hostname?: string; onListen?: () => void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> }
  addSignalListener(signal: string, handler: () => void): void
  exit(code: number): never
  version: { deno: string }
}

const env = Deno.env.toObject()
const { docent, announce } = await readConfigText(env, (path) => Deno.readTextFile(path))
  .then((text) => boot({ env, configText: text, configPath: configFilePath(env), runtime: `deno ${Deno.version.deno}` }))
  .catch((error) => {
    console.error(error?.message ?? error)
    Deno.exit(1)
  })

const { host, port } = docent.config
const server = await Promise.resolve()
  .then(() =>
    Deno.serve({ port, hostname: host, onListen: () => {} }, (request, info) =>
      docent.app.fetch(request, { ip: info.remoteAddr.hostname }),
    ),
  )
  .catch(async (error) => {
    console.error(listenFailure(error, host, port))
    await docent.stop()
    Deno.exit(1)
  })
announce(server.addr.port)

for (const signal of ['SIGINT', 'SIGTERM']) {
  Deno.addSignalListener(signal, () => {
    // Deno's shutdown waits for every request in flight and cannot cut them: after the drain, Docent's stop ends the
    // answers still streaming, and those requests end with them.
    void shutDown(docent, { drain: () => server.shutdown(), cut: () => {} }).finally(() => Deno.exit(0))
  })
}
