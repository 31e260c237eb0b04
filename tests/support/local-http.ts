import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'

// What every test HTTP server here does: listen on a free loopback port, close at once, read a request body.

/** Listens on a free port of 127.0.0.1; returns the server's base URL. */
export async function listenLocal(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** Closes the server now, dropping open connections (keep-alive, or requests a test holds on purpose). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}
