import type { ReactiveController, ReactiveControllerHost } from 'lit'
import type { AssistantV2Body } from '../../shared/assistant.ts'
import { trimEnd } from '../../shared/trim.ts'
import { type AnswerEnd, AssistantChat, type DocentMessage } from './chat.ts'
import { logError } from './errors.ts'
import { type ConversationStore, type ConversationSummary, fingerprint } from './storage.ts'

/** What the controller needs from the element that hosts it. */
export interface ChatHost extends ReactiveControllerHost {
  domain: string
  apiKey: string
  apiBase: string
  fp?: string
  pageSize?: number
  filter?: AssistantV2Body['filter']
  /** A finished answer, a failure: the host turns them into its documented events. */
  answered(message: DocentMessage, end: AnswerEnd, threadId: string | null): void
  failed(error: Error): void
}

/**
 * Owns the AI SDK chat and the reader's stored conversations for the panel: creates the chat for the current
 * domain and key, saves each change of state, keeps what arrived when the page is left mid-answer, and switches
 * between past conversations.
 */
export class ChatController implements ReactiveController {
  #chat: AssistantChat | null = null
  #store: ConversationStore | null = null
  #key = ''
  conversationId: string | null = null
  feedback: Record<string, 'up' | 'down'> = {}

  constructor(
    private readonly host: ChatHost,
    private readonly createStore: (domain: string) => ConversationStore,
  ) {
    host.addController(this)
  }

  hostConnected() {
    addEventListener('pagehide', this.#onPageHide)
  }

  hostDisconnected() {
    removeEventListener('pagehide', this.#onPageHide)
    this.#onPageHide()
    void this.#chat?.stop()
  }

  get store(): ConversationStore {
    this.#ensure()
    return this.#store!
  }

  /** The chat for the host's current domain, key and server (made again when one of them changes). */
  get chat(): AssistantChat {
    this.#ensure()
    return this.#chat!
  }

  get conversations(): ConversationSummary[] {
    return this.store.list()
  }

  #ensure() {
    const { domain, apiKey, apiBase } = this.host
    const key = `${domain}\n${apiKey}\n${apiBase}`
    if (this.#chat && key === this.#key) return
    void this.#chat?.stop()
    this.#key = key
    this.#store = this.createStore(domain)
    this.conversationId = this.#store.currentId
    this.#chat = this.#create(this.conversationId)
  }

  #create(conversationId: string | null): AssistantChat {
    const saved = this.#store!.load(conversationId)
    this.feedback = saved.feedback
    const host = this.host
    const chat: AssistantChat = new AssistantChat({
      domain: host.domain,
      apiKey: host.apiKey,
      apiBase: trimEnd(host.apiBase, '/'),
      messages: saved.messages,
      threadId: saved.threadId,
      request: () => ({
        fp: host.fp || fingerprint(),
        retrievalPageSize: host.pageSize,
        filter: host.filter,
      }),
      onChange: () => host.requestUpdate(),
      onEnd: (message, end) => {
        this.save()
        host.answered(message, end, chat.threadId)
      },
      onError: (error) => {
        logError(error)
        this.save()
        host.failed(error)
      },
    })
    return chat
  }

  save() {
    const chat = this.#chat
    if (!chat || !this.#store) return
    this.conversationId = this.#store.save(this.conversationId, {
      threadId: chat.threadId,
      messages: chat.messages,
      feedback: this.feedback,
    })
  }

  /** Opens a past conversation (null: a new one). The one being answered stops and is kept. */
  async open(conversationId: string | null) {
    await this.chat.stop()
    this.save()
    this.conversationId = conversationId
    this.#store!.currentId = conversationId
    this.#chat = this.#create(conversationId)
    this.host.requestUpdate()
  }

  /** Deletes a stored conversation; the open one is closed first (a new one opens), as closing saves it. */
  async remove(conversationId: string) {
    if (conversationId === this.conversationId) await this.open(null)
    this.store.remove(conversationId)
    this.host.requestUpdate()
  }

  async rate(messageId: string, rating: 'up' | 'down', comment?: string) {
    this.feedback = { ...this.feedback, [messageId]: rating }
    this.save()
    this.host.requestUpdate()
    await this.chat.rate(messageId, rating, comment)
  }

  #onPageHide = () => {
    const chat = this.#chat
    if (!chat) return
    chat.markInterrupted()
    if (chat.messages.length) this.save()
  }
}
