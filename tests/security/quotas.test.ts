import { describe, expect, test } from 'vitest'
import { DocentConfig } from '../../server/config.ts'
import { bearer, json } from '../support/app.ts'
import { limitedDocents } from '../support/limited.ts'

// Rate limits count admitted requests only, and every assistant-key endpoint has per-key and per-IP budgets of its
// own, so no single client can spend an organization's (or a public key's) budget for everyone else.

const limited = limitedDocents()

const question = (text = 'How do I install the SDK?') => ({
  fp: 'anonymous',
  messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text }] }],
})

describe('quotas', () => {
  test('one IP hammering search cannot make another client’s requests 429', async () => {
    const { app, keys } = await limited({ organizationPerHour: 50, docsIpPerHour: 10 })
    const search = (ip: string) => app.request('/discovery/v1/search/demo', json({ query: 'rollouts' }, bearer(keys.assistant)), { ip })
    const hammering: number[] = []
    for (let i = 0; i < 80; i++) hammering.push((await search('10.0.0.66')).status)
    expect(hammering.filter((status) => status === 200)).toHaveLength(10)
    expect(hammering.filter((status) => status === 429)).toHaveLength(70)
    // The 70 refusals spent nothing: the organization has room for everyone else.
    for (let i = 0; i < 10; i++) expect((await search(`10.0.1.${i}`)).status).toBe(200)
    const page = await app.request('/discovery/v1/page/demo', json({ path: 'quickstart' }, bearer(keys.assistant)), { ip: '10.0.2.1' })
    expect(page.status).toBe(200)
  })

  test('refused requests (429 and 400) do not spend the public key’s budget', async () => {
    const { app, keys } = await limited({ ipPerDay: 3, assistantKeyPerMonth: 5 })
    const ask = (ip: string, body: unknown = question()) =>
      app.request('/discovery/v2/assistant/demo/message', json(body, bearer(keys.assistant)), { ip })
    for (let i = 0; i < 3; i++) expect((await (await ask('10.0.0.1')).text()).length).toBeGreaterThan(0)
    // Over its daily limit, the first IP keeps retrying; and sends bodies the server refuses.
    for (let i = 0; i < 20; i++) expect((await ask('10.0.0.1')).status).toBe(429)
    for (let i = 0; i < 20; i++) expect((await ask('10.0.0.2', { fp: 'anonymous', messages: [] })).status).toBe(400)
    // The key has 2 of its 5 left for everyone else.
    expect((await ask('10.0.0.3')).status).toBe(200)
    expect((await ask('10.0.0.4')).status).toBe(200)
    const spent = await ask('10.0.0.5')
    expect(spent.status).toBe(429)
    expect((await spent.json()).error).toMatch(/key-month/)
  })

  test('answers, feedback and MCP have per-IP limits of their own', async () => {
    const { app, keys, store } = await limited({ assistantIpPerHour: 2, feedbackIpPerHour: 1 })
    const ask = (ip: string) => app.request('/discovery/v2/assistant/demo/message', json(question(), bearer(keys.assistant)), { ip })
    const first = await ask('10.0.0.1')
    await first.text()
    await (await ask('10.0.0.1')).text()
    const refused = await ask('10.0.0.1')
    expect(refused.status).toBe(429)
    expect((await refused.json()).error).toMatch(/ip-hour/)
    const threadId = first.headers.get('x-thread-id')!
    let messages = await store.listMessages(threadId)
    for (let i = 0; i < 50 && messages.length < 2; i++)
      messages = await new Promise((r) => setTimeout(r, 20)).then(() => store.listMessages(threadId))
    const rate = (ip: string) =>
      app.request(
        '/discovery/v1/assistant/demo/feedback',
        json({ threadId, messageId: messages[1]!.id, rating: 'up' }, bearer(keys.assistant)),
        { ip },
      )
    expect((await rate('10.0.0.9')).status).toBe(204)
    expect((await rate('10.0.0.9')).status).toBe(429)
    expect((await rate('10.0.0.8')).status).toBe(204)
  })

  test('by default each per-IP hour is well under the organization’s hour', () => {
    const { limits } = DocentConfig.parse({ projects: [{ id: 'p', organization: 'o', domain: 'd', docs: { directory: 'x' } }] })
    for (const perIp of [limits.assistantIpPerHour, limits.docsIpPerHour, limits.feedbackIpPerHour]) {
      expect(perIp * 5).toBeLessThanOrEqual(limits.organizationPerHour)
    }
  })
})
