import { describe, expect, test } from 'vitest'
import { bearer, json, testDocent } from '../support/app.ts'

// Feedback from readers and the docs team's view of threads (admin key).

async function setup() {
  // A clock that ticks a second per reading: thread order by updatedAt never ties.
  let clock = Date.parse('2026-11-01T00:00:00Z')
  const t = await testDocent({}, { now: () => new Date((clock += 1000)) })
  const ask = async (text: string, threadId?: string, fp = 'reader-1') => {
    const response = await t.app.request(
      '/discovery/v2/assistant/demo/message',
      json({ fp, threadId, messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text }] }] }, bearer(t.keys.assistant)),
    )
    const body = await response.text()
    const start = JSON.parse(body.split('\n\n')[0]!.slice(6)) as { messageId: string }
    return { threadId: response.headers.get('x-thread-id')!, messageId: start.messageId }
  }
  const feedback = (body: unknown, key = t.keys.assistant, domain = 'demo') =>
    t.app.request(`/discovery/v1/assistant/${domain}/feedback`, json(body, bearer(key)))
  const admin = (path: string, key = t.keys.admin) => t.app.request(path, { headers: bearer(key) })
  return { ...t, ask, feedback, admin }
}

describe('feedback', () => {
  test('rating an answer → 204; it shows on the message in the admin view, and a second rating replaces the first', async () => {
    const t = await setup()
    const { threadId, messageId } = await t.ask('How do percentage rollouts work?')
    const up = await t.feedback({ threadId, messageId, rating: 'up' })
    expect(up.status).toBe(204)
    expect(await up.text()).toBe('')
    expect((await t.feedback({ threadId, messageId, rating: 'down', comment: 'Missing the ramp schedule.' })).status).toBe(204)
    const detail = await (await t.admin(`/v2/assistant/demo/threads/${threadId}`)).json()
    expect(detail.messages[1]).toMatchObject({
      id: messageId,
      role: 'assistant',
      feedback: { rating: 'down', comment: 'Missing the ramp schedule.' },
    })
    expect(detail.messages[0].feedback).toBeUndefined()
  })

  test("unknown thread or message → 404; bad fields → 400 naming them; another domain's key → 403", async () => {
    const t = await setup()
    const { threadId, messageId } = await t.ask('What is a segment?')
    const unknownThread = await t.feedback({ threadId: 'thr_nope', messageId, rating: 'up' })
    expect(unknownThread.status).toBe(404)
    expect(await unknownThread.json()).toEqual({ error: 'threadId: no such thread', code: 'not_found' })
    const unknownMessage = await t.feedback({ threadId, messageId: 'msg_nope', rating: 'up' })
    expect(await unknownMessage.json()).toEqual({ error: 'messageId: no such message in this thread', code: 'not_found' })
    expect(await (await t.feedback({ threadId, messageId, rating: 'meh' })).json()).toEqual({
      error: expect.stringMatching(/^rating: /),
      code: 'invalid_request',
    })
    expect(await (await t.feedback({ threadId, messageId, rating: 'up', comment: 'x'.repeat(2001) })).json()).toEqual({
      error: 'comment: must be at most 2000 characters',
      code: 'invalid_request',
    })
    expect(await (await t.feedback({ messageId, rating: 'up' })).json()).toEqual({
      error: 'threadId: is required',
      code: 'invalid_request',
    })
    expect((await t.feedback({ threadId, messageId, rating: 'up' }, t.keys.otherAssistant)).status).toBe(403)
    // The other project's key on its own domain cannot see this project's thread.
    expect((await t.feedback({ threadId, messageId, rating: 'up' }, t.keys.otherAssistant, 'acme.example')).status).toBe(404)
  })
})

describe('admin thread endpoints', () => {
  test('lists threads newest first with counts, pages with limit and cursor, and shows a thread with sources', async () => {
    const t = await setup()
    const first = await t.ask('How do percentage rollouts work?', undefined, 'reader-1')
    await t.ask('And how do I ramp them up?', first.threadId, 'reader-1')
    const second = await t.ask('What is a segment?', undefined, 'anonymous')
    const third = await t.ask('How do webhooks sign payloads?', undefined, 'reader-2')

    const page1 = await (await t.admin('/v2/assistant/demo/threads?limit=2')).json()
    expect(page1.threads.map((x: { threadId: string }) => x.threadId)).toEqual([third.threadId, second.threadId])
    expect(page1.threads[0]).toEqual({
      threadId: third.threadId,
      fp: 'reader-2',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      messageCount: 2,
    })
    expect(page1.nextCursor).toEqual(expect.any(String))
    const page2 = await (await t.admin(`/v2/assistant/demo/threads?limit=2&cursor=${encodeURIComponent(page1.nextCursor)}`)).json()
    expect(page2).toEqual({
      threads: [expect.objectContaining({ threadId: first.threadId, fp: 'reader-1', messageCount: 4 })],
      nextCursor: null,
    })

    const detail = await (await t.admin(`/v2/assistant/demo/threads/${first.threadId}`)).json()
    expect(detail.threadId).toBe(first.threadId)
    expect(detail.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(detail.messages[0]).toEqual({
      id: expect.stringMatching(/^msg_/),
      role: 'user',
      content: 'How do percentage rollouts work?',
      createdAt: expect.any(String),
    })
    expect(detail.messages[1].sources[0]).toEqual({
      title: expect.stringContaining('Percentage rollouts'),
      path: 'guides/percentage-rollouts',
      url: expect.stringContaining('/guides/percentage-rollouts'),
    })
    expect(detail.messages[1].content).toContain('[1]')
  })

  test('auth, bounds and not-found', async () => {
    const t = await setup()
    const { threadId } = await t.ask('What is a segment?')
    expect((await t.admin('/v2/assistant/demo/threads', t.keys.assistant)).status).toBe(403)
    expect((await t.admin('/v2/assistant/demo/threads', t.keys.otherAdmin)).status).toBe(403)
    expect((await t.app.request('/v2/assistant/demo/threads')).status).toBe(401)
    expect((await t.admin('/v2/assistant/nope/threads')).status).toBe(404)
    expect(await (await t.admin('/v2/assistant/demo/threads?limit=0')).json()).toEqual({
      error: 'limit: must be at least 1',
      code: 'invalid_request',
    })
    expect(await (await t.admin('/v2/assistant/demo/threads?limit=101')).json()).toEqual({
      error: 'limit: must be at most 100',
      code: 'invalid_request',
    })
    expect((await t.admin('/v2/assistant/demo/threads/thr_nope')).status).toBe(404)
    expect((await t.admin(`/v2/assistant/other/threads/${threadId}`, t.keys.otherAdmin)).status).toBe(404)
    expect(await (await t.admin('/v2/assistant/other/threads', t.keys.otherAdmin)).json()).toEqual({ threads: [], nextCursor: null })
  })
})
