import { afterEach, describe, expect, it, vi } from 'vitest'

/** A page's localStorage: a working one over a Map, or one the browser blocks (every use throws). */
function stubStorage(blocked = false) {
  const items = new Map<string, string>()
  const storage = {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  }
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    get() {
      if (blocked) throw new DOMException('The operation is insecure.', 'SecurityError')
      return storage
    },
  })
  return items
}

// Each test gets the module afresh: what it keeps in memory lasts for a page's life.
const load = async () => {
  vi.resetModules()
  return import('./storage.ts')
}

const message = (n: number, text: string) => ({
  id: `m${n}`,
  role: n % 2 === 0 ? ('user' as const) : ('assistant' as const),
  parts: [{ type: 'text' as const, text }],
})

describe('the conversations a reader’s browser keeps', () => {
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'localStorage')
  })

  it('keeps a conversation’s newest messages within its share of the site’s storage', async () => {
    const items = stubStorage()
    const { ConversationStore } = await load()
    const store = new ConversationStore('demo')
    const messages = [message(0, 'a'.repeat(60_000)), message(1, 'b'.repeat(30_000)), message(2, 'c'.repeat(50_000)), message(3, 'd')]
    const id = store.save(null, { threadId: 'thr_1', messages, feedback: {} })!
    const stored = items.get(`docent:demo:conversation:${id}`)!
    expect(stored.length).toBeLessThanOrEqual(100_000)
    expect(store.load(id)).toMatchObject({ threadId: 'thr_1', messages: messages.slice(1) })
    expect(store.list()[0]).toMatchObject({ id, threadId: 'thr_1' })
  })

  it('keeps the reader id and conversations in memory for the page’s life when storage is blocked', async () => {
    stubStorage(true)
    const { ConversationStore, fingerprint } = await load()
    const fp = fingerprint()
    expect(fp).toMatch(/^fp_/)
    expect(fingerprint()).toBe(fp)
    const store = new ConversationStore('demo')
    const id = store.save(null, { threadId: 'thr_1', messages: [message(0, 'What is a flag?')], feedback: {} })
    expect(store.currentId).toBe(id)
    expect(store.load(id)).toMatchObject({ threadId: 'thr_1', messages: [message(0, 'What is a flag?')] })
    expect(store.list().map((item) => item.title)).toEqual(['What is a flag?'])
    store.remove(id!)
    expect(store.list()).toEqual([])
    expect(store.currentId).toBe(null)
  })
})
