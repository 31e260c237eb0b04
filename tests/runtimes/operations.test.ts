import { connect, type Socket } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { pgliteDataDir } from '../support/pglite.ts'
import { type Runtime, type ServerProcess, startServer } from '../support/server-process.ts'

// Operating the real server on each runtime: the bind address, and slow clients (slowloris) cut off.

const cleanup: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {})
})

async function serverOn(runtime: Runtime, env: Record<string, string> = {}, host?: string): Promise<ServerProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), `docent-ops-${runtime}-`))
  await pgliteDataDir(join(dataDir, 'pglite'))
  // Short limits, so the test waits seconds, not the defaults (10 s for headers, 30 s for a body).
  await writeFile(join(dataDir, 'docent.config.json'), JSON.stringify({ limits: { headersSeconds: 2, bodySeconds: 2 } }))
  const server = await startServer(
    runtime,
    { DOCENT_DATA_DIR: dataDir, DOCENT_CONFIG: join(dataDir, 'docent.config.json'), DOCENT_WORKER: 'false', ...env },
    { timeoutMs: 120_000, host },
  )
  cleanup.push(async () => {
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  })
  return server
}

const reachable = (url: string) =>
  fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
    (response) => response.ok,
    () => false,
  )

/**
 * Opens a raw connection, writes `head` now and `trickle` one byte a second; resolves with what the server said and
 * when it first said something (or closed).
 */
function slowClient(port: number, head: string, trickle: string): Promise<{ answer: string; answeredAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now()
    let answer = ''
    let answeredAt: number | undefined
    const socket: Socket = connect(port, '127.0.0.1', () => {
      socket.write(head)
      let sent = 0
      const timer = setInterval(() => {
        if (sent < trickle.length && !socket.destroyed) socket.write(trickle[sent++]!)
      }, 1000)
      socket.on('close', () => clearInterval(timer))
    })
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => {
      answeredAt ??= Date.now()
      answer += chunk
      // The refusal is what matters; Deno keeps reading a socket whose client keeps sending, so do not wait for a close.
      if (/\r\n\r\n/.test(answer)) socket.destroy()
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve({ answer, answeredAfterMs: (answeredAt ?? Date.now()) - started }))
    // A bound on the test itself: never wait for the runtime's own (much longer) defaults.
    setTimeout(() => socket.destroy(), 40_000)
  })
}

/** Writes `request` on a raw connection; resolves with all the server said until it closed (or 10 s passed). */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    let answer = ''
    const socket = connect(port, '127.0.0.1', () => socket.write(request))
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('error', () => {})
    socket.on('close', () => resolve(answer))
    setTimeout(() => socket.destroy(), 10_000)
  })
}

for (const runtime of ['node', 'deno', 'bun'] as Runtime[]) {
  describe(`operations on ${runtime}`, () => {
    test('binds to loopback by default, and to HOST when set', async () => {
      const byDefault = await serverOn(runtime)
      expect(await reachable(`http://127.0.0.1:${byDefault.port}`)).toBe(true)
      // Another loopback address of this machine: reachable only if the server listened on every interface.
      expect(await reachable(`http://127.0.0.2:${byDefault.port}`)).toBe(false)
      const bound = await serverOn(runtime, { HOST: '127.0.0.2' }, '127.0.0.2')
      expect(await reachable(`http://127.0.0.2:${bound.port}`)).toBe(true)
      expect(await reachable(`http://127.0.0.1:${bound.port}`)).toBe(false)
      expect(bound.output()).toContain(`bound to 127.0.0.2:${bound.port}`)
    }, 240_000)

    test('a client trickling its body is cut off after bodySeconds', async () => {
      const server = await serverOn(runtime)
      const body = JSON.stringify({ query: 'install the SDK and more words to send slowly' })
      const head =
        'POST /discovery/v1/search/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`
      const { answer, answeredAfterMs } = await slowClient(server.port, head, body.slice(5))
      expect(answer).toMatch(/^HTTP\/1\.1 408/)
      // Refused long before the body could have arrived (one byte a second), not held for the runtime's default.
      expect(answeredAfterMs).toBeLessThan((body.length - 5) * 1000 - 10_000)
    }, 120_000)

    test('a request line too long for the runtime is a 4xx (on Node, with a JSON error), and the server goes on', async () => {
      const server = await serverOn(runtime)
      const answer = await rawRequest(
        server.port,
        `GET /v1/analytics/demo/searches?cursor=${'A'.repeat(100_000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      )
      expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/)
      if (runtime === 'node') {
        expect(answer).toMatch(/^HTTP\/1\.1 431/)
        expect(answer).toMatch(/content-type: application\/json/i)
        expect(answer).toContain('{"error":"the request line and headers are longer than 16 KB (a query or cursor too long?)"')
      }
      expect(await reachable(`http://127.0.0.1:${server.port}`)).toBe(true)
    }, 120_000)

    if (runtime === 'node') {
      test('a client trickling its headers is cut off after headersSeconds', async () => {
        const server = await serverOn(runtime)
        const { answer, answeredAfterMs } = await slowClient(
          server.port,
          'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
          'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n',
        )
        expect(answer).not.toMatch(/200 OK/)
        // Cut off before the headers could have arrived (one byte a second), not after Node's default.
        expect(answeredAfterMs).toBeLessThan(30_000)
      }, 120_000)

      test('a request no URL can be made of (a malformed Host) gets a JSON 400, and the server goes on', async () => {
        const server = await serverOn(runtime)
        for (const host of ['a b', `127.0.0.1:${server.port}/evil`]) {
          const { answer } = await slowClient(server.port, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, '')
          expect(answer).toMatch(/^HTTP\/1\.1 400/)
          expect(answer).toMatch(/content-type: application\/json/i)
        }
        expect(await reachable(`http://127.0.0.1:${server.port}`)).toBe(true)
      }, 120_000)
    }
  })
}
