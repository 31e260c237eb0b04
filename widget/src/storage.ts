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

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    // Storage can be disabled (private modes, sandboxed frames): the widget still works for one page view.
    return null
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // Full or disabled storage: the conversation is then kept for this page view only.
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
    const messages = conversation.messages.slice(-MAX_SAVED_MESSAGES)
    write(this.#key(`conversation:${conversationId}`), JSON.stringify({ ...conversation, messages }))
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
