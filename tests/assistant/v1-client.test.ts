import { processDataStream } from 'ai-v4'
import { callChatApi, generateId, type Message, type UIMessage } from 'ai-sdk-ui-utils-v1'
import { afterAll, expect, test } from 'vitest'
import { startScriptedOpenAI } from '../support/scripted-openai.ts'
import { testDocent } from '../support/app.ts'
import { serveApp, serveTestDocent } from './support.ts'

// The v1 endpoint driven the way AI SDK v4's useChat drives it: callChatApi with streamProtocol 'data' and
// sendExtraMessageFields: true (whole messages, ids and parts included), over HTTP.

const served = serveTestDocent()

/** useChat's state handling around callChatApi, without React. */
function v4Chat(api: string, key: string, body: () => Record<string, unknown>) {
  const chatId = generateId()
  let messages: Message[] = []
  return {
    get messages() {
      return messages
    },
    async append(text: string) {
      const user: UIMessage = { id: generateId(), createdAt: new Date(), role: 'user', content: text, parts: [{ type: 'text', text }] }
      messages = [...messages, user]
      const sent = messages
      let finished: Message | undefined
      await callChatApi({
        api,
        body: { id: chatId, messages: sent, ...body() },
        streamProtocol: 'data',
        credentials: undefined,
        headers: { authorization: `Bearer ${key}` },
        abortController: () => null,
        restoreMessagesOnFailure: () => {
          messages = sent.slice(0, -1)
        },
        onResponse: undefined,
        onUpdate: ({ message, replaceLastMessage }) => {
          messages = [...(replaceLastMessage ? sent.slice(0, -1) : sent), message]
        },
        onFinish: (message) => {
          finished = message
        },
        onToolCall: undefined,
        generateId,
        fetch: undefined,
        lastMessage: user,
      })
      return finished
    },
  }
}

const threadOf = (message: Message | undefined) => (message?.annotations?.[0] as { threadId?: string } | undefined)?.threadId

test('ai@4 callChatApi sees the text, the sources (tool result and source parts) and the thread id; turn two joins the thread', async () => {
  let threadId: string | undefined
  const chat = v4Chat(`${served.url}/discovery/v1/assistant/demo/message`, served.keys.assistant, () => ({ fp: 'anonymous', threadId }))
  const answer = await chat.append('How many attributes can a context have?')
  expect(answer?.role).toBe('assistant')
  expect(answer?.content).toContain('at most **100 attributes**')
  const invocation = answer?.parts?.find((part) => part.type === 'tool-invocation')
  expect(invocation?.type === 'tool-invocation' && invocation.toolInvocation).toMatchObject({ toolName: 'search', state: 'result' })
  const results = (
    invocation as { toolInvocation: { result: { results: Array<{ path: string; url: string; metadata: { title: string } }> } } }
  ).toolInvocation.result.results
  expect(results.map((r) => r.path)).toContain('concepts/contexts')
  expect(results[0]!.metadata.title).toBeTruthy()
  const sources = answer?.parts?.filter((part) => part.type === 'source') ?? []
  expect(sources.length).toBe(results.length)
  threadId = threadOf(answer)
  expect(threadId).toMatch(/^thr_/)

  const second = await chat.append('And can they be private?')
  expect(threadOf(second)).toBe(threadId)
  expect(second?.content).toMatch(/private/i)
  const stored = await served.store.listMessages(threadId!)
  expect(stored.map((m) => [m.role, m.role === 'user' ? m.content : m.id])).toEqual([
    ['user', 'How many attributes can a context have?'],
    ['assistant', answer!.id],
    ['user', 'And can they be private?'],
    ['assistant', second!.id],
  ])
})

test('ai@4 processDataStream reads the raw v1 response; headers are the data stream protocol', async () => {
  const response = await fetch(`${served.url}/discovery/v1/assistant/demo/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${served.keys.assistant}` },
    body: JSON.stringify({ fp: 'anonymous', messages: [{ id: 'm1', role: 'user', content: 'How do percentage rollouts work?' }] }),
  })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
  expect(response.headers.get('x-vercel-ai-data-stream')).toBe('v1')
  const headerThread = response.headers.get('x-thread-id')
  let text = ''
  let annotation: unknown
  let finishReason = ''
  await processDataStream({
    stream: response.body!,
    onTextPart: (delta) => void (text += delta),
    onMessageAnnotationsPart: (value) => void (annotation = value),
    onFinishMessagePart: (value) => void (finishReason = value.finishReason),
  })
  expect(text).toMatch(/percentage rollout/i)
  expect(annotation).toEqual([{ threadId: headerThread, resolution: 'answered' }])
  expect(finishReason).toBe('stop')
})

test('ai@4 callChatApi learns the thread even when the model fails: the annotation comes before the text, the finish names it too', async () => {
  let fail = true
  const model = await startScriptedOpenAI(() => (fail ? { text: 'The answer starts', failAfterChars: 10 } : { text: 'Fine now.' }))
  const t = await testDocent({ model: { provider: 'openai', id: 'scripted', baseURL: model.baseURL } })
  const server = await serveApp(t.app)
  afterAll(async () => {
    await server.close()
    await t.docent.stop()
    await model.close()
  })
  let threadId: string | undefined
  const chat = v4Chat(`${server.url}/discovery/v1/assistant/demo/message`, t.keys.assistant, () => ({ fp: 'anonymous', threadId }))
  // The v4 client throws at the error part and reads nothing after it.
  await expect(chat.append('How do percentage rollouts work?')).rejects.toThrow(/model failed/)
  threadId = threadOf(chat.messages.at(-1))
  expect(threadId).toMatch(/^thr_/)

  fail = false
  const second = await chat.append('And how do I start one?')
  expect(threadOf(second)).toBe(threadId)
  expect((await t.store.listMessages(threadId!)).filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
    'How do percentage rollouts work?',
    'And how do I start one?',
  ])

  // The raw stream: the finish line carries the thread id as well.
  const raw = await fetch(`${server.url}/discovery/v1/assistant/demo/message`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.keys.assistant}` },
    body: JSON.stringify({ fp: 'anonymous', threadId, messages: [{ id: 'm3', role: 'user', content: 'Thanks' }] }),
  })
  const finish = (await raw.text()).split('\n').find((line) => line.startsWith('d:'))!
  expect(JSON.parse(finish.slice(2))).toMatchObject({ finishReason: 'stop', threadId })
})
