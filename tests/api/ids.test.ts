import { afterEach, expect, test } from 'vitest'
import { sequentialIds } from '../../server/mod.ts'
import { bearer, json, testDocent } from '../support/app.ts'

// The id source is a capability built in createDocent: a caller's own (here predictable ids) names every stored record
// the API hands out, while API keys stay random (they are secrets, never drawn from the replaceable source).

let stop: (() => Promise<void>) | undefined
afterEach(async () => {
  await stop?.()
  stop = undefined
})

test('createDocent with a sequential id source: thread, message and job ids through the HTTP API are predictable', async () => {
  const t = await testDocent({}, { ids: sequentialIds() })
  stop = () => t.docent.stop()
  const ask = (question: string, threadId?: string) =>
    t.app.request(
      '/discovery/v2/assistant/demo/message',
      json(
        { fp: 'reader', threadId, messages: [{ id: 'q', role: 'user', parts: [{ type: 'text', text: question }] }] },
        bearer(t.keys.assistant),
      ),
    )

  const first = await ask('How do percentage rollouts work?')
  expect(first.headers.get('x-thread-id')).toBe('thr_1')
  await first.text()
  const followUp = await ask('And are they sticky?', 'thr_1')
  expect(followUp.headers.get('x-thread-id')).toBe('thr_1')
  await followUp.text()
  const second = await ask('How do I create a flag?')
  expect(second.headers.get('x-thread-id')).toBe('thr_2')
  await second.text()

  const thread = await t.app.request('/v2/assistant/demo/threads/thr_1', { headers: bearer(t.keys.admin) })
  expect(thread.status).toBe(200)
  const { messages } = (await thread.json()) as { messages: Array<{ id: string; role: string }> }
  // Each turn stores the question, then the answer: the answer of the first question is msg_2.
  expect(messages.map(({ id, role }) => `${role} ${id}`)).toEqual(['user msg_1', 'assistant msg_2', 'user msg_3', 'assistant msg_4'])

  const created = await t.app.request('/v2/agent/demo/job', json({ prompt: 'Document the timeout option' }, bearer(t.keys.admin)))
  expect(created.status).toBe(200)
  expect(((await created.json()) as { id: string }).id).toBe('job1')
  expect((await t.app.request('/v2/agent/demo/job/job1', { headers: bearer(t.keys.admin) })).status).toBe(200)

  // Keys are secrets: random, whatever id source the caller passed.
  expect(t.keys.admin).toMatch(/^svc_[A-Za-z0-9]{32}$/)
  expect(t.keys.assistant).toMatch(/^svc_dsc_[A-Za-z0-9]{32}$/)
})
