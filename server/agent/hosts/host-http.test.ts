import { createServer, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, test } from 'vitest'
import { z } from 'zod'
import { closeServer, listenLocal } from '../../../tests/support/local-http.ts'
import { HostApiError, hostRequest, MAX_HOST_RESPONSE_BYTES, webAddress } from './host-http.ts'

const TOKEN = 'ghp_hostHttpSecret42'

/** The host's answer, through the fetch capability hostRequest is given (as every host gets the context's fetch). */
const answering =
  (status: number, body: unknown): typeof fetch =>
  async () =>
    new Response(JSON.stringify(body), { status })

const call = (fetchImpl: typeof fetch) =>
  hostRequest({
    schema: z.unknown(),
    fetch: fetchImpl,
    method: 'POST',
    url: 'https://api.example/repos/a/b/pulls',
    headers: {},
    secret: TOKEN,
    host: 'GitHub',
  })

describe('host API errors carry a stable code, and never the token', () => {
  test.each([
    [401, 'authentication_failed'],
    [403, 'authentication_failed'],
    [404, 'not_found'],
    [409, 'conflict'],
    [422, 'conflict'],
    [500, 'host_failed'],
  ])('%i → %s', async (status, code) => {
    const error = await call(answering(status, { message: `no, ${TOKEN}` })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HostApiError)
    expect(error).toMatchObject({ code, data: { status, where: 'GitHub POST /repos/a/b/pulls' } })
    expect((error as Error).message).toMatch(new RegExp(`^GitHub POST /repos/a/b/pulls answered ${status}: no, \\*\\*\\*`))
    expect(JSON.stringify(error) + (error as Error).message).not.toContain(TOKEN)
  })

  test('a host that does not answer is host_failed', async () => {
    const error = await call(async () => {
      throw new TypeError(`fetch failed for ${TOKEN}`)
    }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'host_failed', message: 'GitHub POST /repos/a/b/pulls failed: fetch failed for ***' })
  })
})

describe('a hostile or broken host API', () => {
  const servers: Array<() => Promise<void>> = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((close) => close()))
  })
  /** A real HTTP server on loopback; every request it gets is kept. */
  const serve = async (answer: (path: string, res: ServerResponse) => void) => {
    const seen: Array<{ path: string; headers: Record<string, unknown> }> = []
    const server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers })
      answer(req.url ?? '', res)
    })
    const url = await listenLocal(server)
    servers.push(() => closeServer(server))
    return { url, seen }
  }
  const get = (url: string, extra: Partial<Parameters<typeof hostRequest>[0]> = {}) =>
    hostRequest({
      schema: z.object({ iid: z.number(), web_url: webAddress }),
      fetch,
      method: 'GET',
      url,
      headers: { 'PRIVATE-TOKEN': TOKEN },
      secret: TOKEN,
      host: 'GitLab',
      ...extra,
    }).catch((error: unknown) => error)

  test('a redirect is not followed: the token never reaches the address it names', async () => {
    const elsewhere = await serve((_, res) => res.end('{"iid":1,"web_url":"https://x.example/1"}'))
    const api = await serve((_, res) => res.writeHead(307, { location: `${elsewhere.url}/steal` }).end())
    const error = await get(`${api.url}/projects/1/merge_requests/1`)
    expect(error).toBeInstanceOf(HostApiError)
    expect(error).toMatchObject({ code: 'host_failed', data: { status: 307 } })
    expect((error as Error).message).toMatch(/answered with a redirect \(307\); Docent does not follow/)
    expect(elsewhere.seen).toEqual([])
  })

  test('an answer past the size limit is refused, not read into memory', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 32)
    const endless = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      const more = () => {
        while (!res.destroyed && res.write(chunk)) {}
        if (!res.destroyed) res.once('drain', more)
      }
      more()
    })
    const error = await get(endless.url)
    expect(error).toMatchObject({ code: 'host_failed' })
    expect((error as Error).message).toBe(`GitLab GET / answered with more than ${MAX_HOST_RESPONSE_BYTES / (1024 * 1024)} MiB`)
  })

  test('an answer that drips in ends at the call time limit', async () => {
    const drip = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{')
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), 50)
    })
    const error = await get(drip.url, { timeoutMs: 300 })
    expect(error).toMatchObject({ code: 'host_failed', message: 'GitLab GET / did not answer within 0.3 s' })
  })

  test.each([
    ['no pull request at all', {}],
    ['a script for its address', { iid: 1, web_url: 'javascript:alert(1)//' }],
    ['an address that is no URL', { iid: 1, web_url: 'not a url' }],
  ])('a body of another shape (%s) is host_failed, never used', async (_, body) => {
    const api = await serve((_, res) => res.end(JSON.stringify(body)))
    const error = await get(api.url)
    expect(error).toBeInstanceOf(HostApiError)
    expect((error as Error).message).toMatch(/^GitLab GET \/ answered with a body of another shape than the API's \(/)
  })
})
