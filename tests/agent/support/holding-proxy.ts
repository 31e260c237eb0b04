import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Sits in front of a (scripted) model server. While `hold` is on, requests are kept waiting with no answer: a run is
 * then provably in progress, which is when the restart tests kill the server. Otherwise requests pass through.
 */
export async function startHoldingProxy(upstream: string) {
  const state = { hold: false, held: 0, passed: 0, /** Held requests whose client went away (aborted or killed). */ dropped: 0 }
  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    if (state.hold) {
      state.held++
      req.socket.on('error', () => {})
      res.on('close', () => state.dropped++)
      return // never answered: the client (the killed server) goes away
    }
    state.passed++
    const response = await fetch(`${upstream}${req.url}`, { method: req.method, headers: { 'content-type': 'application/json' }, body })
    res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'application/json' })
    res.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => resolve(body))
    req.on('error', reject)
  })
}
