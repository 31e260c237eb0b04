import { afterEach, describe, expect, it } from 'vitest'
import type { Logger } from '../../server/log.ts'
import { testDocent } from '../support/app.ts'

/** A logger that keeps its info lines. */
function keptLog() {
  const lines: Array<{ message: string; fields?: Record<string, unknown> }> = []
  const log: Logger = { info: (message, fields) => void lines.push({ message, fields }), warn() {}, error() {} }
  return { log, requests: () => lines.filter((line) => line.message === 'request').map((line) => line.fields!) }
}

describe('the access log', () => {
  let stop: (() => Promise<void>) | undefined
  afterEach(async () => {
    await stop?.()
    stop = undefined
  })

  it('writes one line per request with its method, path, status, time and request id, never its query', async () => {
    const { log, requests } = keptLog()
    const { docent, app, keys } = await testDocent({ accessLog: true }, { log })
    stop = () => docent.stop()

    const found = await app.request('/discovery/v1/search/demo?reader=secret-words', {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.assistant}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'install the cli' }),
    })
    expect(found.status).toBe(200)
    const unauthorized = await app.request('/discovery/v1/search/acme.example', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'x' }),
    })
    expect(unauthorized.status).toBe(401)
    const malformed = await app.request('/discovery/v1/search/demo', {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.assistant}`, 'content-type': 'application/json' },
      body: '{"query":',
    })
    expect(malformed.status).toBe(400)
    await app.request('/v9/nothing-here.json')

    expect(requests().map(({ method, path, status }) => [method, path, status])).toEqual([
      ['POST', '/discovery/v1/search/demo', 200],
      ['POST', '/discovery/v1/search/acme.example', 401],
      ['POST', '/discovery/v1/search/demo', 400],
      ['GET', '/v9/nothing-here.json', 404],
    ])
    const first = requests()[0]!
    expect(first.requestId).toBe(found.headers.get('x-request-id'))
    expect(first.ms).toBeGreaterThanOrEqual(0)
    expect(JSON.stringify(requests())).not.toContain('secret-words')
  })

  it('is off unless asked for', async () => {
    const { log, requests } = keptLog()
    const { docent, app } = await testDocent({}, { log })
    stop = () => docent.stop()
    expect((await app.request('/v9/nothing-here.json')).status).toBe(404)
    expect(requests()).toEqual([])
  })
})
