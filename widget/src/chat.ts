import { AbstractChat, DefaultChatTransport, type UIMessage } from 'ai'
import { LitChatState } from './chat-state.ts'
import { checkedFetch } from './errors.ts'
import { clearConversation, loadConversation, saveConversation } from './storage.ts'

export type DocentMessage = UIMessage<{ threadId?: string } | undefined>

export interface ContextItem {
  type: 'code' | 'textSelection'
  value: string
  path?: string
}

export interface ChatOptions {
  domain: string
  apiKey: string
  /** Server base URL without a trailing slash; '' for the page's own origin. */
  apiBase: string
  fp: string
  retrievalPageSize?: number
  filter?: Record<string, unknown> | null
  onChange: () => void
}

export const MAX_CURRENT_PATH = 200

/**
 * The AI SDK's chat client against Docent's v2 endpoint. Sends exactly the contract's fields, remembers the
 * thread id the stream returns, and keeps the conversation per domain in localStorage.
 */
export class AssistantChat extends AbstractChat<DocentMessage> {
  declare threadId: string | null
  declare feedback: Record<string, 'up' | 'down'>
  declare readonly options: ChatOptions
  /** Context of the question being answered, resent on retry. */
  declare lastContext: ContextItem[] | undefined

  constructor(options: ChatOptions) {
    const saved = loadConversation(options.domain)
    // The transport and callbacks run after construction; they reach the chat through this holder.
    const self = {} as { chat: AssistantChat }
    const state = new LitChatState<DocentMessage>(saved.messages, options.onChange)
    const transport = new DefaultChatTransport<DocentMessage>({
      api: `${options.apiBase}/discovery/v2/assistant/${encodeURIComponent(options.domain)}/message`,
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: checkedFetch as typeof fetch,
      prepareSendMessagesRequest: ({ messages, body }) => {
        const context = (body as { context?: ContextItem[] } | undefined)?.context
        return {
          body: {
            fp: options.fp,
            threadId: self.chat.threadId,
            // Only text travels: sources and metadata of earlier answers are the server's own output.
            messages: messages.map((m) => ({ id: m.id, role: m.role, parts: m.parts.filter((p) => p.type === 'text') })),
            retrievalPageSize: options.retrievalPageSize ?? 5,
            filter: options.filter ?? null,
            currentPath: location.pathname.slice(0, MAX_CURRENT_PATH),
            ...(context?.length ? { context } : {}),
          },
        }
      },
    })
    super({
      state,
      transport,
      onFinish: ({ message }) => {
        const threadId = message.metadata?.threadId
        if (threadId) self.chat.threadId = threadId
        self.chat.save()
      },
      onError: () => self.chat.save(),
    })
    self.chat = this
    this.options = options
    this.threadId = saved.threadId
    this.feedback = saved.feedback
  }

  ask(text: string, context?: ContextItem[]) {
    this.lastContext = context
    return this.sendMessage({ text }, context?.length ? { body: { context } } : undefined)
  }

  retry() {
    return this.regenerate(this.lastContext?.length ? { body: { context: this.lastContext } } : undefined)
  }

  save() {
    saveConversation(this.options.domain, { threadId: this.threadId, messages: this.messages, feedback: this.feedback })
  }

  /** A new thread: the next question starts a conversation the server has not seen. */
  async reset() {
    await this.stop()
    this.threadId = null
    this.feedback = {}
    this.lastContext = undefined
    this.messages = []
    this.clearError()
    clearConversation(this.options.domain)
  }

  /** Thumbs up or down on an answer, sent to the feedback endpoint. */
  async rate(messageId: string, rating: 'up' | 'down') {
    if (!this.threadId) return
    this.feedback = { ...this.feedback, [messageId]: rating }
    this.save()
    this.options.onChange()
    const { apiBase, domain, apiKey } = this.options
    await checkedFetch(`${apiBase}/discovery/v1/assistant/${encodeURIComponent(domain)}/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ threadId: this.threadId, messageId, rating }),
    })
  }
}
