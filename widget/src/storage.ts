import type { DocentMessage } from './chat.ts'

/** What a reader's browser keeps per domain, so a reload continues the same conversation. */
export interface SavedConversation {
  threadId: string | null
  messages: DocentMessage[]
  feedback: Record<string, 'up' | 'down'>
}

const MAX_SAVED_MESSAGES = 60

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

/** A random id for this browser, kept so the server can group a reader's threads without knowing who they are. */
export function fingerprint(): string {
  const existing = read('docent:fp')
  if (existing) return existing
  const fp = `fp_${crypto.randomUUID()}`
  write('docent:fp', fp)
  return fp
}

const conversationKey = (domain: string) => `docent:${domain}:conversation`

export function loadConversation(domain: string): SavedConversation {
  const empty: SavedConversation = { threadId: null, messages: [], feedback: {} }
  const text = read(conversationKey(domain))
  if (!text) return empty
  try {
    const saved = JSON.parse(text) as Partial<SavedConversation>
    return {
      threadId: typeof saved.threadId === 'string' ? saved.threadId : null,
      messages: Array.isArray(saved.messages) ? saved.messages.filter(isMessage) : [],
      feedback: saved.feedback && typeof saved.feedback === 'object' ? saved.feedback : {},
    }
  } catch {
    return empty
  }
}

export function saveConversation(domain: string, conversation: SavedConversation) {
  const messages = conversation.messages.slice(-MAX_SAVED_MESSAGES)
  write(conversationKey(domain), JSON.stringify({ ...conversation, messages }))
}

export function clearConversation(domain: string) {
  write(conversationKey(domain), null)
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
