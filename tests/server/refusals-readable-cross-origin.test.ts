import { afterAll, describe, expect, it } from 'vitest'
import { shutDown } from '../../server/serve/boot.ts'
import { bearer, json, testDocent } from '../support/app.ts'

// Refusals made before a route's own CORS runs (the body limit, a stopping server) must still be readable by the page
// that sent the request: without a grant the browser shows it as a network failure, and the widget cannot tell the
// reader "too long" or "restarting, try again" from "offline".

const ORIGIN = 'https://docs.example.com'
const path = '/discovery/v2/assistant/demo/message'
const question = { fp: 'fp_test', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'What is a flag?' }] }] }

describe('refusals a browser can read', () => {
  const started = testDocent()
  afterAll(async () => (await started).docent.stop())

  it('answers a body over 1 MiB with a 413 JSON error that the allowed origin may read', async () => {
    const { app, keys } = await started
    const body = JSON.stringify({ ...question, fp: 'x'.repeat(1024 * 1024) })
    const response = await app.request(
      path,
      json(body, { ...bearer(keys.assistant), origin: ORIGIN, 'content-length': String(Buffer.byteLength(body)) }),
    )
    expect(response.status).toBe(413)
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(await response.json()).toMatchObject({ error: 'request body must be at most 1048576 bytes', code: 'payload_too_large' })
  })

  it('refuses requests once stopping has begun with a readable 503 and Retry-After, and still answers preflights', async () => {
    const { app, docent, keys } = await started
    docent.refuseRequests()
    const response = await app.request(path, json(question, { ...bearer(keys.assistant), origin: ORIGIN }))
    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(response.headers.get('connection')).toBe('close')
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect(await response.json()).toMatchObject({ code: 'unavailable' })
    const preflight = await app.request(path, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN)
  })

  it('refuses with 503 after stop(), instead of answering on a closed store', async () => {
    const { app, docent, keys } = await testDocent()
    await docent.stop()
    const response = await app.request(path, json(question, bearer(keys.assistant)))
    expect(response.status).toBe(503)
  })

  it('is what a runtime’s shutdown answers from the signal on, while the requests in flight drain', async () => {
    const { app, docent, keys } = await testDocent()
    let whileDraining = 0
    const server = {
      drain: async () => {
        whileDraining = (await app.request(path, json(question, bearer(keys.assistant)))).status
      },
      cut: () => {},
    }
    await shutDown(docent, server, 0)
    expect(whileDraining).toBe(503)
  })
})
