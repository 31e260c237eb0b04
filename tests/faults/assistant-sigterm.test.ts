import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test, vi } from 'vitest'
import { DRAIN_SECONDS } from '../../server/serve/boot.ts'
import { startGatedModel } from '../assistant/gated-model.ts'
import { askDemo, type ServerProcess, startServer } from '../support/server-process.ts'

// SIGTERM (a deploy, a restart) while answers stream: no new request is taken; an answer that ends within the drain
// reaches its reader whole; one that does not is ended after DRAIN_SECONDS with what was written stored and the
// reader told; after a restart both are in their threads. Before, the signal cut every stream at once and the answers
// already sent were never stored.

const ADMIN = 'svc_AssistantSigtermAdminKey000000001'
const ASSISTANT = 'svc_dsc_AssistantSigtermAssistantKey1'
const servers: ServerProcess[] = []
let dataDir: string | undefined
const model = await startGatedModel()

afterAll(async () => {
  for (const server of servers) await server.stop().catch(() => {})
  await model.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

const ask = (server: ServerProcess, id: string, text: string) => askDemo(server, ASSISTANT, id, text)

async function reading(responding: Promise<Response>) {
  const response = await responding
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return true
      text += decoder.decode(value, { stream: true })
    }
  })().catch(() => false)
  return { threadId: response.headers.get('x-thread-id')!, text: () => text, ended }
}

const threadOf = async (server: ServerProcess, threadId: string) => {
  const response = await fetch(`${server.url}/v2/assistant/demo/threads/${threadId}`, { headers: { authorization: `Bearer ${ADMIN}` } })
  expect(response.status, threadId).toBe(200)
  return ((await response.json()) as { messages: Array<{ role: string; content: string }> }).messages
}

test('SIGTERM mid-stream: answers in flight finish or are ended and stored, the reader told; nothing acknowledged is lost', async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'docent-assistant-sigterm-'))
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

  const finishing = reading(ask(first, 'finishing', 'What is a rollout?'))
  const finishingTurn = await model.nextTurn()
  const endless = reading(ask(first, 'endless', 'What is a segment?'))
  const endlessTurn = await model.nextTurn()
  for (let chunk = 0; chunk < 5; chunk++) {
    finishingTurn.write(`rollout ${chunk} `)
    endlessTurn.write(`segment ${chunk} `)
  }
  const [whole, cut] = await Promise.all([finishing, endless])
  await vi.waitFor(
    () => {
      expect(whole.text()).toContain('rollout 4')
      expect(cut.text()).toContain('segment 4')
    },
    { timeout: 30_000 },
  )

  const signalledAt = Date.now()
  first.child.kill('SIGTERM')
  // Draining: the server takes no new request, and the answer that ends now reaches its reader whole.
  await vi.waitFor(() => expect(first.output()).toContain('stopping: requests in flight may finish'), { timeout: 30_000 })
  await vi.waitFor(async () => expect(await fetch(`${first.url}/healthz`).catch(() => undefined)).toBeUndefined(), { timeout: 5_000 })
  finishingTurn.write('the end.')
  finishingTurn.end()
  expect(await whole.ended).toBe(true)
  expect(whole.text()).toContain('the end.')
  expect(whole.text()).toContain('data: [DONE]')

  // The other never ends: after the drain the server ends it, tells the reader, and exits.
  expect(await cut.ended).toBe(true)
  expect(Date.now() - signalledAt).toBeGreaterThanOrEqual((DRAIN_SECONDS - 1) * 1000)
  expect(cut.text()).toContain('the server is restarting')
  expect(cut.text()).toContain('data: [DONE]')
  await new Promise<void>((resolve) => (first.child.exitCode !== null ? resolve() : first.child.once('exit', () => resolve())))
  expect(first.child.exitCode).toBe(0)

  const second = await startServer('node', env, { timeoutMs: 90_000 })
  servers.push(second)
  expect(await threadOf(second, whole.threadId)).toMatchObject([
    { role: 'user', content: 'What is a rollout?' },
    { role: 'assistant', content: 'rollout 0 rollout 1 rollout 2 rollout 3 rollout 4 the end.' },
  ])
  expect(await threadOf(second, cut.threadId)).toMatchObject([
    { role: 'user', content: 'What is a segment?' },
    {
      role: 'assistant',
      content: 'segment 0 segment 1 segment 2 segment 3 segment 4 \n\n*The answer was cut off: the server is restarting.*',
    },
  ])
}, 240_000)
