import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test, vi } from 'vitest'
import { startGatedModel } from '../assistant/gated-model.ts'
import { askDemo, type ServerProcess, startServer } from '../support/server-process.ts'

// kill -9 of a server while answers are streaming: after a restart on the same embedded store, every answer that
// reached its end before the kill is in its thread, every interrupted reader's question is in the thread whose id it
// was given, and the server serves their next questions in those threads.

const ADMIN = 'svc_AssistantKillAdminKey000000000001'
const ASSISTANT = 'svc_dsc_AssistantKillAssistantKey0001'
const servers: ServerProcess[] = []
let dataDir: string | undefined
const model = await startGatedModel()

afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => {})
  await model.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const ask = (server: ServerProcess, id: string, text: string) => askDemo(server, ASSISTANT, id, text)

test('kill -9 mid-stream, restart: finished answers are all kept; the server answers again', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-assistant-kill-'))
  const env = {
    DOCENT_DATA_DIR: dataDir,
    DOCENT_STORE: 'pglite',
    DOCENT_ADMIN_KEY: ADMIN,
    DOCENT_ASSISTANT_KEY: ASSISTANT,
    OPENAI_BASE_URL: model.baseURL,
    OPENAI_API_KEY: 'gated',
    DOCENT_WORKER: 'false',
  }
  const first = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(first)

  // Three answers run to their end.
  const finished: Array<{ threadId: string; answer: string }> = []
  for (let n = 0; n < 3; n++) {
    const responding = ask(first, `done-${n}`, `How do I install the SDK? (${n})`)
    const turn = await model.nextTurn()
    const answer = `Install it with npm, answer number ${n}.`
    turn.write(answer)
    turn.end()
    const response = await responding
    const body = await response.text()
    expect(body).toContain('data: [DONE]')
    finished.push({ threadId: response.headers.get('x-thread-id')!, answer })
  }

  // Three more are mid-answer (ten chunks read) when the server is killed.
  const cutQuestions = ['What is a rollout?', 'What is a segment?', 'How do I target a user?']
  const interrupted = cutQuestions.map((text, n) => ask(first, `cut-${n}`, text))
  const turns = await Promise.all(cutQuestions.map(() => model.nextTurn()))
  const readers = interrupted.map(async (responding) => {
    const response = await responding
    const reader = response.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    const tenChunks = (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        text += decoder.decode(value, { stream: true })
      }
    })().catch(() => {})
    return { threadId: response.headers.get('x-thread-id')!, text: () => text, ended: tenChunks }
  })
  for (const turn of turns) for (let chunk = 0; chunk < 10; chunk++) turn.write(`part ${chunk} `)
  const cut = await Promise.all(readers)
  for (const reader of cut) await vi.waitFor(() => expect(reader.text()).toContain('part 9'), { timeout: 30_000 })
  await first.kill()
  for (const reader of cut) {
    await reader.ended
    expect(reader.text()).not.toContain('data: [DONE]')
  }

  const second = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(second)
  for (const { threadId, answer } of finished) {
    const response = await fetch(`${second.url}/v2/assistant/demo/threads/${threadId}`, { headers: { authorization: `Bearer ${ADMIN}` } })
    expect(response.status).toBe(200)
    const thread = (await response.json()) as { messages: Array<{ role: string; content: string }> }
    expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(thread.messages[1]!.content).toBe(answer)
  }
  // Each interrupted reader had the thread id and ten chunks: its question is in that thread.
  for (const [n, { threadId }] of cut.entries()) {
    const response = await fetch(`${second.url}/v2/assistant/demo/threads/${threadId}`, { headers: { authorization: `Bearer ${ADMIN}` } })
    expect(response.status, threadId).toBe(200)
    const thread = (await response.json()) as { messages: Array<{ role: string; content: string }> }
    expect(thread.messages[0]).toMatchObject({ role: 'user', content: cutQuestions[n] })
  }
  // The restarted server answers again on the same store.
  const again = ask(second, 'after', 'How do I install the SDK?')
  const turn = await model.nextTurn()
  turn.write('Still here.')
  turn.end()
  expect(await (await again).text()).toContain('Still here.')
}, 240_000)
