import * as ai7 from 'ai'
import * as ai5 from 'ai-v5'
import * as ai6 from 'ai-v6'
import { describe, expect, test } from 'vitest'
import { type ChatModule, chatOf, serveTestDocent, sourcesOf, textOf } from './support.ts'

// Real AI SDK chat clients (ai@5 newest 5.x, ai@6, ai@7) against the v2 endpoint over HTTP, on the real search over
// demo/docs and the built-in offline-answer model.
const clients: Array<[string, ChatModule]> = [
  ['ai@5', ai5 as unknown as ChatModule],
  ['ai@6', ai6 as unknown as ChatModule],
  ['ai@7', ai7 as unknown as ChatModule],
]

const served = serveTestDocent()

describe.each(clients)('%s Chat + DefaultChatTransport against v2', (_name, ai) => {
  test('streams a grounded answer with sources and the thread id; a second turn lands in the same thread', async () => {
    let threadId: string | undefined
    const chat = chatOf(ai, {
      api: `${served.url}/discovery/v2/assistant/demo/message`,
      key: served.keys.assistant,
      body: () => ({ fp: 'reader-1', threadId, currentPath: '/concepts/contexts' }),
    })
    await chat.sendMessage({ text: 'How many attributes can a context have?' })
    expect(chat.error).toBeUndefined()
    expect(chat.status).toBe('ready')
    const answer = chat.messages.at(-1)!
    expect(answer.role).toBe('assistant')
    expect(textOf(answer)).toContain('at most **100 attributes**')
    expect(textOf(answer)).toMatch(/\[\d\]/)
    const sources = sourcesOf(answer)
    expect(sources.length).toBeGreaterThan(0)
    // One source per page, linked at its best section.
    expect(sources.map((s) => new URL(s.url).pathname)).toContain('/concepts/contexts')
    threadId = (answer.metadata as { threadId?: string }).threadId
    expect(threadId).toMatch(/^thr_[A-Za-z0-9_-]{22}$/)

    await chat.sendMessage({ text: 'And can they be private?' })
    expect(chat.error).toBeUndefined()
    const second = chat.messages.at(-1)!
    expect((second.metadata as { threadId?: string }).threadId).toBe(threadId)
    expect(textOf(second)).toMatch(/private/i)

    const stored = await served.store.listMessages(threadId!)
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant'])
    expect(stored[0]!.content).toBe('How many attributes can a context have?')
    expect(stored[1]!.id).toBe(answer.id)
    expect(stored[1]!.content).toBe(textOf(answer))
    expect(stored[3]!.sources?.length).toBeGreaterThan(0)
    expect((await served.store.getThread('demo', threadId!))?.fp).toBe('reader-1')
  })
})
