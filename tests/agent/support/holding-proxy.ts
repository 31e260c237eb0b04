import { createServer } from 'node:http'
import { closeServer, listenLocal, readBody } from '../../support/local-http.ts'

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
  const url = await listenLocal(server)
  return {
    url,
    state,
    close: () => closeServer(server),
  }
}
