import { validate } from '@readme/openapi-parser'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { declaredRoutes } from '../../server/app.ts'
import { bearer, testDocent } from '../support/app.ts'

// The OpenAPI document is generated from the route declarations. These tests hold it to two things: it is a valid
// OpenAPI 3.1 document whose schemas compile, and it tells the truth: every status a route answers with, for any of
// the requests a client could send, is one the document lists for that route, and every JSON body of a success
// matches the documented schema.

type TestDocent = Awaited<ReturnType<typeof testDocent>>
let t: TestDocent
type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } }

beforeAll(async () => {
  t = await testDocent({ limits: { agentPerProjectPerHour: 1_000_000, organizationPerHour: 1_000_000 } })
  doc = await (await t.app.request('/openapi.json')).json()
})
afterAll(() => t.docent.stop())

function ajv() {
  const instance = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(instance)
  instance.addSchema({ $id: 'doc', components: doc.components }, 'doc')
  return instance
}
const localRefs = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))

describe('the OpenAPI document', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(doc) as never)
    expect(result.valid ? [] : result.errors).toEqual([])
  })

  test('every schema in it compiles (ajv, JSON Schema 2020-12)', () => {
    const compiler = ajv()
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => compiler.compile(localRefs(schema)), name).not.toThrow()
    }
  })

  test('lists every declared route, with its guard and validation statuses and rate-limit headers', () => {
    const routes = declaredRoutes(t.docent.context)
    for (const declared of routes) expect(doc.paths[declared.path]?.[declared.method], `${declared.method} ${declared.path}`).toBeDefined()
    for (const path of [
      '/mcp/{domain}',
      '/review/{jobId}',
      '/llms.txt',
      '/docs/{domain}/llms-full.txt',
      '/v2/agent/{projectId}/jobs',
      '/v2/assistant/{projectId}/threads',
      '/v1/analytics/{projectId}/assistant',
      '/v1/analytics/{projectId}/assistant/threads/{threadId}',
      '/v1/analytics/{projectId}/assistant/caller-stats',
      '/v1/analytics/{projectId}/feedback',
      '/v1/analytics/{projectId}/feedback/by-page',
      '/v1/analytics/{projectId}/feedback/{id}',
      '/v1/analytics/{projectId}/searches',
      '/v1/analytics/{projectId}/gaps',
      '/v1/analytics/{projectId}/gaps/{id}/fix',
      '/v2/agent/{projectId}/job/{id}/merge',
      '/discovery/v1/events/{domain}',
      '/v2/agent/{projectId}/automations',
      '/v2/agent/{projectId}/automations/{automationId}/runs',
      '/workflow/{projectId}/{workflowSchemaId}/trigger',
      '/webhooks/github',
      '/webhooks/gitlab',
    ]) {
      expect(doc.paths[path], path).toBeDefined()
    }
    const v2 = doc.paths['/discovery/v2/assistant/{domain}/message']!.post as unknown as {
      responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { 'x-item-schema'?: unknown }> }>
    }
    expect(Object.keys(v2.responses).sort()).toEqual(['200', '400', '401', '403', '413', '415', '429', '500'])
    expect(Object.keys(v2.responses[429]!.headers!)).toEqual(
      expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
    )
    expect(Object.keys(v2.responses[200]!.headers!)).toContain('X-Thread-Id')
    expect(v2.responses[200]!.content!['text/event-stream']!['x-item-schema']).toEqual({ $ref: '#/components/schemas/UiMessageChunk' })
    const jobs = doc.paths['/v2/agent/{projectId}/jobs']!.get as unknown as { parameters: Array<{ name: string; in: string }> }
    expect(
      jobs.parameters
        .filter((p) => p.in === 'query')
        .map((p) => p.name)
        .sort(),
    ).toEqual(['cursor', 'limit'])
  })

  test('says what the server refuses: a v2 message with content, and formats of ids, dates and links', () => {
    const compiler = ajv()
    const v2Body = (
      doc.paths['/discovery/v2/assistant/{domain}/message']!.post as unknown as {
        requestBody: { content: { 'application/json': { schema: unknown } } }
      }
    ).requestBody.content['application/json'].schema
    const check = compiler.compile(localRefs(v2Body))
    const message = { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }
    expect(check({ fp: 'a', messages: [message] })).toBe(true)
    expect(check({ fp: 'a', messages: [{ ...message, content: 'hi' }] })).toBe(false)
    expect(check({ fp: 'a', messages: [message], filter: null })).toBe(true)
    const job = JSON.stringify(doc.components.schemas.AgentJob)
    expect(job).toContain('"format":"date-time"')
    expect(job).toContain('"format":"uri"')
  })
})

describe('the document tells the truth', () => {
  test('every status a route answers is documented for it; success bodies match their schemas', async () => {
    const { keys } = t
    // Real things to address: a job and a thread of the demo project.
    const job = (await (
      await t.app.request('/v2/agent/demo/job', {
        method: 'POST',
        headers: { ...bearer(keys.admin), 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Fix the misspelling "recieve"' }),
      })
    ).json()) as { id: string }
    const answer = await t.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { ...bearer(keys.assistant), 'content-type': 'application/json' },
      body: JSON.stringify({ fp: 'a', messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: 'What is a flag?' }] }] }),
    })
    const threadId = answer.headers.get('x-thread-id')!
    await answer.text()
    // A question the docs do not cover, rated down: a gap and a piece of feedback to address.
    const unanswered = await t.app.request('/discovery/v2/assistant/demo/message', {
      method: 'POST',
      headers: { ...bearer(keys.assistant), 'content-type': 'application/json' },
      body: JSON.stringify({ fp: 'a', messages: [{ id: 'm2', role: 'user', parts: [{ type: 'text', text: 'Is there a Ruby SDK?' }] }] }),
    })
    const messageId = /"messageId":"([^"]+)"/.exec(await unanswered.text())![1]!
    await t.app.request('/discovery/v1/assistant/demo/feedback', {
      method: 'POST',
      headers: { ...bearer(keys.assistant), 'content-type': 'application/json' },
      body: JSON.stringify({ threadId: unanswered.headers.get('x-thread-id'), messageId, rating: 'down' }),
    })
    const admin = { headers: bearer(keys.admin) }
    const gapId = ((await (await t.app.request('/v1/analytics/demo/gaps', admin)).json()) as { gaps: Array<{ id: string }> }).gaps[0]!.id
    const feedbackId = ((await (await t.app.request('/v1/analytics/demo/feedback', admin)).json()) as { feedback: Array<{ id: string }> })
      .feedback[0]!.id

    const fills: Record<string, string[]> = {
      projectId: ['demo', 'other', 'nope'],
      domain: ['demo', 'acme.example', 'nope'],
      id: [job.id, 'job_unknown', gapId, feedbackId],
      jobId: [job.id, 'job_unknown'],
      threadId: [threadId, 'thr_unknown'],
      pagePath: ['quickstart', 'nope/nothing'],
      automationId: ['fix-typos', 'nope'],
      workflowSchemaId: ['draft-changelog', 'nope'],
    }
    const keyChoices: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic abc' },
      bearer('svc_unknownunknownunknown'),
      bearer(keys.admin),
      bearer(keys.assistant),
      bearer(keys.otherAdmin),
      bearer(keys.otherAssistant),
    ]
    const bodies: Array<{ body?: string; type?: string }> = [
      {},
      { body: '{}', type: 'application/json' },
      { body: 'not json', type: 'application/json' },
      { body: '{"a":1}', type: 'text/csv' },
      { body: JSON.stringify({ prompt: 'Add a page titled "Glossary"' }), type: 'application/json' },
      { body: JSON.stringify({ query: 'flags', path: 'quickstart' }), type: 'application/json' },
      {
        body: JSON.stringify({ fp: 'a', messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text: 'What is a flag?' }] }] }),
        type: 'application/json',
      },
      { body: JSON.stringify({ threadId, messageId: 'msg_unknown', rating: 'up' }), type: 'application/json' },
      { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), type: 'application/json' },
      { body: JSON.stringify({ status: 'resolved' }), type: 'application/json' },
      { body: JSON.stringify({ text: 'Lumen has no Ruby SDK yet.' }), type: 'application/json' },
      {
        body: JSON.stringify({ events: [{ type: 'search_result_click', query: 'flags', path: '/concepts/flags', position: 0 }] }),
        type: 'application/json',
      },
      { body: 'head=0123456789012345678901234567890123456789', type: 'application/x-www-form-urlencoded' },
    ]
    const compiler = ajv()
    const undocumented: string[] = []
    let checked = 0
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!)
        const paths = names.reduce<string[]>(
          (partial, name) => partial.flatMap((path) => fills[name]!.map((value) => path.replace(`{${name}}`, value))),
          [template],
        )
        for (const path of paths) {
          for (const auth of keyChoices) {
            for (const { body, type } of method === 'get' || method === 'delete' ? [{}] : bodies) {
              const response = await t.app.request(path, {
                method: method.toUpperCase(),
                headers: { ...auth, ...(type ? { 'content-type': type } : {}), accept: 'application/json, text/event-stream' },
                body,
              })
              checked++
              const documented = operation.responses[String(response.status)]
              if (!documented) {
                undocumented.push(`${method.toUpperCase()} ${path} → ${response.status}: ${(await response.text()).slice(0, 120)}`)
                continue
              }
              const schema = documented.content?.['application/json']?.schema
              if (schema && response.status < 300 && (response.headers.get('content-type') ?? '').includes('json')) {
                const valid = compiler.compile(localRefs(schema))
                const payload = await response.json()
                expect(valid(payload), `${method} ${path}: ${JSON.stringify(valid.errors)}`).toBe(true)
              } else {
                await response.body?.cancel()
              }
            }
          }
        }
      }
    }
    expect(undocumented).toEqual([])
    expect(checked).toBeGreaterThan(500)
  })
})
