import { beforeAll, describe, expect, test } from 'vitest'
import { createKey } from '../../server/keys/keys.ts'
import type { Logger } from '../../server/log.ts'
import { bearer, json, testDocent } from '../support/app.ts'

// Who may touch what, on the real routes: assistant keys stay on the discovery endpoints of their one domain, admin
// keys stay inside their organization, and dead keys and foreign origins get nothing.

type TestDocent = Awaited<ReturnType<typeof testDocent>>
let t: TestDocent
let demoJobId: string
let demoThreadId: string
const logLines: string[] = []
const capture: Logger = {
  info: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  warn: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  error: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
}

const question = { fp: 'anonymous', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'How do I install the SDK?' }] }] }

beforeAll(async () => {
  t = await testDocent({}, { log: capture })
  const job = await t.app.request('/v2/agent/demo/job', json({ prompt: 'Fix the typo "recieve" everywhere' }, bearer(t.keys.admin)))
  expect(job.status).toBe(200)
  demoJobId = ((await job.json()) as { id: string }).id
  const answer = await t.app.request('/discovery/v2/assistant/demo/message', json(question, bearer(t.keys.assistant)))
  expect(answer.status).toBe(200)
  await answer.text()
  demoThreadId = answer.headers.get('x-thread-id')!
  expect(demoThreadId).toBeTruthy()
})

const adminEndpoints = (project: string, job: string, thread: string) =>
  [
    ['POST', `/v2/agent/${project}/job`, { prompt: 'x' }],
    ['POST', `/v2/agent/${project}/job/${job}/message`, { prompt: 'x' }],
    ['GET', `/v2/agent/${project}/job/${job}`],
    ['GET', `/v2/agent/${project}/jobs`],
    ['POST', `/v2/agent/${project}/job/${job}/archive`, {}],
    ['GET', `/v2/agent/${project}/job/${job}/events`],
    ['GET', `/v2/assistant/${project}/threads`],
    ['GET', `/v2/assistant/${project}/threads/${thread}`],
  ] as const

const discoveryEndpoints = (domain: string) =>
  [
    ['POST', `/discovery/v1/assistant/${domain}/message`, { fp: 'a', messages: [{ id: 'm', role: 'user', content: 'install?' }] }],
    ['POST', `/discovery/v2/assistant/${domain}/message`, question],
    ['POST', `/discovery/v1/assistant/${domain}/feedback`, { threadId: 'x', messageId: 'y', rating: 'up' }],
    ['POST', `/discovery/v1/search/${domain}`, { query: 'install' }],
    ['POST', `/discovery/v1/page/${domain}`, { path: 'quickstart' }],
  ] as const

function send(method: string, path: string, key: string | undefined, body?: unknown) {
  const headers = key ? bearer(key) : {}
  return t.app.request(path, body === undefined ? { method, headers } : { ...json(body, headers), method })
}

async function expectRefused(response: Response, status: number, what: string) {
  expect(response.status, what).toBe(status)
  expect(typeof ((await response.json()) as { error?: unknown }).error, what).toBe('string')
}

describe('key kinds and organizations', () => {
  test('an assistant key never reaches agent or admin endpoints (403), even for its own project', async () => {
    for (const [method, path, body] of adminEndpoints('demo', demoJobId, demoThreadId)) {
      await expectRefused(await send(method, path, t.keys.assistant, body), 403, `${method} ${path}`)
    }
  })

  test('an admin key is not an assistant key (403 on discovery endpoints)', async () => {
    for (const [method, path, body] of discoveryEndpoints('demo')) {
      await expectRefused(await send(method, path, t.keys.admin, body), 403, `${method} ${path}`)
    }
  })

  test("another organization's admin key neither reads nor changes the demo project's jobs and threads", async () => {
    for (const [method, path, body] of adminEndpoints('demo', demoJobId, demoThreadId)) {
      await expectRefused(await send(method, path, t.keys.otherAdmin, body), 403, `${method} ${path}`)
    }
    // Through its own project the demo ids simply do not exist.
    await expectRefused(await send('GET', `/v2/agent/other/job/${demoJobId}`, t.keys.otherAdmin), 404, 'job via own project')
    await expectRefused(await send('GET', `/v2/agent/other/job/${demoJobId}/events`, t.keys.otherAdmin), 404, 'events via own project')
    await expectRefused(
      await send('POST', `/v2/agent/other/job/${demoJobId}/archive`, t.keys.otherAdmin, {}),
      404,
      'archive via own project',
    )
    await expectRefused(await send('GET', `/v2/assistant/other/threads/${demoThreadId}`, t.keys.otherAdmin), 404, 'thread via own project')
    const jobs = (await (await send('GET', '/v2/agent/other/jobs', t.keys.otherAdmin)).json()) as { jobs: unknown[] }
    expect(jobs.jobs).toEqual([])
    const threads = (await (await send('GET', '/v2/assistant/other/threads', t.keys.otherAdmin)).json()) as { threads: unknown[] }
    expect(threads.threads).toEqual([])
    // Nothing changed: the demo job is still there and not archived.
    const job = (await (await send('GET', `/v2/agent/demo/job/${demoJobId}`, t.keys.admin)).json()) as { archivedAt: string | null }
    expect(job.archivedAt).toBeNull()
  })

  test("another domain's assistant key gets 403 on every discovery endpoint", async () => {
    for (const [method, path, body] of discoveryEndpoints('demo')) {
      await expectRefused(await send(method, path, t.keys.otherAssistant, body), 403, `${method} ${path}`)
    }
  })

  test('revoked and expired keys are refused on the real endpoints (401)', async () => {
    const revokedAdmin = await createKey(t.store, { kind: 'admin', organization: 'demo' })
    await t.store.revokeKey(revokedAdmin.record.id, new Date())
    const expiredAssistant = await createKey(t.store, {
      kind: 'assistant',
      organization: 'demo',
      projectId: 'demo',
      expiresAt: new Date(Date.now() - 1000),
    })
    for (const [method, path, body] of adminEndpoints('demo', demoJobId, demoThreadId)) {
      await expectRefused(await send(method, path, revokedAdmin.secret, body), 401, `revoked: ${method} ${path}`)
      await expectRefused(await send(method, path, undefined, body), 401, `no key: ${method} ${path}`)
    }
    for (const [method, path, body] of discoveryEndpoints('demo')) {
      await expectRefused(await send(method, path, expiredAssistant.secret, body), 401, `expired: ${method} ${path}`)
    }
  })
})

describe('origins', () => {
  test('a disallowed origin gets 403 and no CORS grant, on preflight and on the request itself', async () => {
    for (const [, path, body] of discoveryEndpoints('demo')) {
      const preflight = await t.app.request(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      })
      expect(preflight.status, `preflight ${path}`).toBe(403)
      expect(preflight.headers.get('access-control-allow-origin'), `preflight ${path}`).toBeNull()
      const response = await t.app.request(path, json(body, { ...bearer(t.keys.assistant), origin: 'https://evil.example' }))
      expect(response.status, path).toBe(403)
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull()
    }
  })

  test('the allowed origin gets a grant for exactly itself', async () => {
    const preflight = await t.app.request('/discovery/v2/assistant/demo/message', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://docs.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    })
    expect(preflight.status).toBeLessThan(300)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://docs.example.com')
  })
})

describe('secrets', () => {
  test('key secrets never appear in responses: listings and errors show no more than the prefix and last four', async () => {
    const secrets = Object.values(t.keys)
    const bodies: string[] = []
    for (const [method, path, body] of [...adminEndpoints('demo', demoJobId, demoThreadId), ...discoveryEndpoints('demo')]) {
      for (const key of secrets) bodies.push(await (await send(method, path, key, body)).text())
    }
    bodies.push(await (await t.app.request('/openapi.json')).text())
    for (const secret of secrets) {
      for (const text of bodies) expect(text.includes(secret)).toBe(false)
      // Not even the part after the prefix.
      const tail = secret.slice(secret.indexOf('_', 4) + 1)
      for (const text of bodies) expect(text.includes(tail)).toBe(false)
    }
  })

  test('key secrets never appear in the logs', () => {
    expect(logLines.length).toBeGreaterThan(0)
    for (const secret of Object.values(t.keys)) for (const line of logLines) expect(line.includes(secret)).toBe(false)
  })
})
