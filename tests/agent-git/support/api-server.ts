import { createServer } from 'node:http'
import { closeServer, listenLocal } from '../../support/local-http.ts'

export interface RecordedRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: Record<string, string | string[] | undefined>
  body: unknown
}

export interface ApiReply {
  status: number
  body: unknown
}

/** An HTTP server answering JSON like a provider's API; keeps every request for the test to check. */
export async function startApiServer(handle: (request: RecordedRequest) => ApiReply) {
  const requests: RecordedRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const text = Buffer.concat(chunks).toString()
      const request = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      }
      requests.push(request)
      let reply: ApiReply
      try {
        reply = handle(request)
      } catch (error) {
        reply = { status: 599, body: { message: `test server refused the request: ${(error as Error).message}` } }
      }
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(reply.body))
    })
  })
  const url = await listenLocal(server)
  return {
    url,
    requests,
    close: () => closeServer(server),
  }
}
