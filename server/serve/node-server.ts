// The server on Node, loaded by the entry (node.ts) once PGlite's WebAssembly is compiling: config, Docent, the HTTP
// server, its timeouts and signals, and the idle collector.
import { createServer } from 'node:http'
import { getRequestListener, RequestError } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { boot, listenFailure, shutDown } from './boot.ts'
import { startIdleCollector } from './idle-collector.ts'

/** Starts Docent and listens; resolves once the server is bound. */
export async function serveOnNode(configText: string | undefined, configPath: string): Promise<void> {
  const { docent, announce } = await boot({ env: process.env, configText, configPath, runtime: `node ${process.version}` }).catch(
    (error) => {
      console.error(error?.message ?? error)
      process.exit(1)
    },
  )

  const { limits } = docent.config
  const collector = startIdleCollector(() => process.memoryUsage().heapUsed)
  // The listener `serve` would make, with an error handler (`serve` passes none on): a request Node parsed but no URL
  // can be made of ("Host: a b", a backslash in the path) is refused before it reaches the app, and gets the app's JSON
  // error instead of an empty 400.
  const listener = getRequestListener(
    (request, env) => {
      collector?.noteRequest()
      return docent.app.fetch(request, { ip: env.incoming.socket.remoteAddress })
    },
    { hostname: docent.config.host, errorHandler: refusal },
  )
  const server = createServer(
    {
      // Slow clients (slowloris): the headers within headersSeconds, the whole request within bodySeconds more. Node checks
      // these every connectionsCheckingInterval (30 s by default, which let a client hold a connection for 88 s).
      headersTimeout: limits.headersSeconds * 1000,
      requestTimeout: (limits.headersSeconds + limits.bodySeconds) * 1000,
      connectionsCheckingInterval: 1000,
    },
    listener,
  )
  server.on('clientError', clientRefusal)
  const { host, port } = docent.config
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  }).catch(async (error) => {
    console.error(listenFailure(error, host, port))
    await docent.stop()
    process.exit(1)
  })
  announce((server.address() as AddressInfo).port)

  const listening = {
    drain: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      }),
    cut: () => server.closeAllConnections(),
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      collector?.stop()
      void shutDown(docent, listening).finally(() => process.exit(0))
    })
  }
}

/**
 * What a request Node's parser refuses gets, in the app's error shape: Node wrote a bare status line (a URL longer
 * than its 16 KB of headers, a 100,000-character cursor, got `431` and no body), which clients read as no answer.
 */
function clientRefusal(error: Error & { code?: string }, socket: import('node:stream').Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'
  const body = JSON.stringify(
    tooLarge
      ? { error: 'the request line and headers are longer than 16 KB (a query or cursor too long?)', code: 'invalid_request' }
      : { error: 'bad request: not valid HTTP', code: 'invalid_request' },
  )
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** What a request that never reached the app gets: the app's error shape (see http/errors.ts). */
function refusal(error: unknown): Response {
  if (error instanceof RequestError) {
    return Response.json({ error: `bad request: ${error.message}`, code: 'invalid_request' }, { status: 400 })
  }
  console.error(error)
  return Response.json({ error: 'internal error', code: 'internal' }, { status: 500 })
}
