import type { DocentMessage } from './chat.ts'
import { randomId } from './ids.ts'

/** One conversation as a reader's browser keeps it. */
export interface SavedConversation {
  threadId: string | null
  messages: DocentMessage[]
  feedback: Record<string, 'up' | 'down'>
}

/** A line of the past-conversations list. */
export interface ConversationSummary {
  id: string
  title: string
  threadId: string | null
  updatedAt: number
}

const MAX_SAVED_MESSAGES = 60
const MAX_CONVERSATIONS = 20
/**
 * A conversation's share of the site's localStorage (about 5 million characters per origin, shared with the site's
 * own keys): its oldest messages are left out beyond this. The server keeps the whole thread.
 */
const MAX_SAVED_CHARACTERS = 100_000

/**
 * What could not go to localStorage (disabled: private modes, sandboxed frames, a page that blocks it; or full), kept
 * for the page's life instead, so the reader id and the conversation stay the same from one question to the next.
 */
const unsaved = new Map<string, string | null>()

function read(key: string): string | null {
  if (unsaved.has(key)) return unsaved.get(key)!
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
    unsaved.delete(key)
  } catch {
    unsaved.set(key, value)
  }
}

function parse<T>(text: string | null): T | null {
  if (!text) return null
  try {
    return JSON.parse(text) as T
  } catch {
    return null
  }
}

/** A random id for this browser, kept so the server can group a reader's threads without knowing who they are. */
export function fingerprint(): string {
  const existing = read('docent:fp')
  if (existing) return existing
  const fp = randomId('fp_')
  write('docent:fp', fp)
  return fp
}

/**
 * Past conversations per domain in localStorage: an index (`docent:<domain>:conversations`, newest first) and one
 * entry per conversation, plus which one is open. The single conversation of earlier versions is taken over.
 */
export class ConversationStore {
  constructor(readonly domain: string) {
    this.#adoptLegacy()
  }

  #key(name: string) {
    return `docent:${this.domain}:${name}`
  }

  list(): ConversationSummary[] {
    const list = parse<ConversationSummary[]>(read(this.#key('conversations')))
    return Array.isArray(list) ? list.filter((item) => item && typeof item.id === 'string') : []
  }

  get currentId(): string | null {
    return read(this.#key('current'))
  }
  set currentId(id: string | null) {
    write(this.#key('current'), id)
  }

  load(id: string | null): SavedConversation {
    const empty: SavedConversation = {
      threadId: null,
      messages: [],
      feedback: {},
    }
    const saved = id ? parse<Partial<SavedConversation>>(read(this.#key(`conversation:${id}`))) : null
    if (!saved) return empty
    return {
      threadId: typeof saved.threadId === 'string' ? saved.threadId : null,
      messages: Array.isArray(saved.messages) ? saved.messages.filter(isMessage) : [],
      feedback: saved.feedback && typeof saved.feedback === 'object' ? saved.feedback : {},
    }
  }

  /** Saves a conversation (a new one gets an id) and moves it to the top of the list; returns its id. */
  save(id: string | null, conversation: SavedConversation): string | null {
    if (conversation.messages.length === 0) return id
    const conversationId = id ?? randomId('c_')
    let messages = conversation.messages.slice(-MAX_SAVED_MESSAGES)
    const sizes = messages.map((message) => JSON.stringify(message).length + 1)
    let size = JSON.stringify({ ...conversation, messages: [] }).length + sizes.reduce((sum, each) => sum + each, 0)
    while (size > MAX_SAVED_CHARACTERS && messages.length > 1) {
      size -= sizes.shift()!
      messages = messages.slice(1)
    }
    const saved = JSON.stringify({ ...conversation, messages })
    // A single message over the share (an answer of a few hundred pages) is kept for this page view only.
    if (saved.length > MAX_SAVED_CHARACTERS) unsaved.set(this.#key(`conversation:${conversationId}`), saved)
    else write(this.#key(`conversation:${conversationId}`), saved)
    const first = conversation.messages.find((message) => message.role === 'user')
    const title = (first?.parts ?? [])
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('')
      .slice(0, 120)
    const summary: ConversationSummary = {
      id: conversationId,
      title,
      threadId: conversation.threadId,
      updatedAt: Date.now(),
    }
    const list = [summary, ...this.list().filter((item) => item.id !== conversationId)]
    for (const dropped of list.splice(MAX_CONVERSATIONS)) {
      write(this.#key(`conversation:${dropped.id}`), null)
    }
    write(this.#key('conversations'), JSON.stringify(list))
    this.currentId = conversationId
    return conversationId
  }

  remove(id: string) {
    write(this.#key(`conversation:${id}`), null)
    write(this.#key('conversations'), JSON.stringify(this.list().filter((item) => item.id !== id)))
    if (this.currentId === id) this.currentId = null
  }

  #adoptLegacy() {
    const legacy = this.#key('conversation')
    const saved = parse<Partial<SavedConversation>>(read(legacy))
    if (!saved) return
    write(legacy, null)
    if (Array.isArray(saved.messages) && saved.messages.length) {
      this.save(null, {
        threadId: typeof saved.threadId === 'string' ? saved.threadId : null,
        messages: saved.messages.filter(isMessage),
        feedback: saved.feedback ?? {},
      })
    }
  }
}

function isMessage(value: unknown): value is DocentMessage {
  const message = value as DocentMessage
  return (
    Boolean(message) &&
    typeof message.id === 'string' &&
    (message.role === 'user' || message.role === 'assistant') &&
    Array.isArray(message.parts)
  )
}
