import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { startGatedModel } from '../assistant/gated-model.ts'
import { type ServerProcess, startServer } from '../support/server-process.ts'

// kill -9 of a server while answers are streaming: after a restart on the same embedded store, every answer that
// reached its end before the kill is in its thread, and the server serves the interrupted readers' next questions.

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

const ask = (server: ServerProcess, id: string, text: string) =>
  fetch(`${server.url}/discovery/v2/assistant/demo/message`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ASSISTANT}`, 'content-type': 'application/json' },
    body: JSON.stringify({ fp: 'reader', messages: [{ id, role: 'user', parts: [{ type: 'text', text }] }] }),
  })

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

  // Two more are mid-answer when the server is killed.
  const interrupted = [ask(first, 'cut-0', 'What is a rollout?'), ask(first, 'cut-1', 'What is a segment?')]
  const turns = [await model.nextTurn(), await model.nextTurn()]
  for (const turn of turns) turn.write('A rollout is ')
  const readers = interrupted.map(async (responding) => {
    const response = await responding
    return response.text().catch((error: Error) => `cut: ${error.message}`)
  })
  await new Promise((resolve) => setTimeout(resolve, 200))
  await first.kill()
  for (const text of await Promise.all(readers)) expect(text).not.toContain('data: [DONE]')

  const second = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(second)
  for (const { threadId, answer } of finished) {
    const response = await fetch(`${second.url}/v2/assistant/demo/threads/${threadId}`, { headers: { authorization: `Bearer ${ADMIN}` } })
    expect(response.status).toBe(200)
    const thread = (await response.json()) as { messages: Array<{ role: string; content: string }> }
    expect(thread.messages.map((message) => message.role)).toEqual(['user', 'assistant'])
    expect(thread.messages[1]!.content).toBe(answer)
  }
  // The restarted server answers again on the same store.
  const again = ask(second, 'after', 'How do I install the SDK?')
  const turn = await model.nextTurn()
  turn.write('Still here.')
  turn.end()
  expect(await (await again).text()).toContain('Still here.')
}, 240_000)
