import { AbstractChat, DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import type { AssistantV2Body, ContextItem, FeedbackBody } from '../../shared/assistant.ts'
import { LitChatState } from './chat-state.ts'
import { checkedFetch } from './errors.ts'
import { randomId } from './ids.ts'

/**
 * How an answer ended, kept with it so a reload shows the truth: `complete` (the stream's `finish` arrived),
 * `stopped` (the reader pressed Stop) or `cut-off` (the stream broke, the model failed, or the page was left).
 */
export type AnswerEnd = 'complete' | 'stopped' | 'cut-off'

export interface DocentMetadata {
  threadId?: string
  /** From the server's `finish`: `unanswered` when the docs did not cover the question (shows the support hand-off). */
  resolution?: 'answered' | 'unanswered'
  end?: AnswerEnd
}
export type DocentMessage = UIMessage<DocentMetadata | undefined>
export type { ContextItem }

export interface ChatOptions {
  domain: string
  apiKey: string
  /** Server base URL without a trailing slash; '' for the page's own origin. */
  apiBase: string
  /** Read for each request, so the page can change them (`Docent.update`) without a new chat. */
  request: () => {
    fp: string
    retrievalPageSize?: number
    filter?: AssistantV2Body['filter']
  }
  messages: DocentMessage[]
  threadId: string | null
  onChange: () => void
  onEnd: (message: DocentMessage, end: AnswerEnd) => void
  onError: (error: Error) => void
}

export const MAX_CURRENT_PATH = 200

/** The v2 transport, noting whether the stream's `finish` chunk arrived (a stream that just stops is cut off). */
class FinishAwareTransport extends DefaultChatTransport<DocentMessage> {
  finished = false
  protected override processResponseStream(stream: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> {
    this.finished = false
    return super.processResponseStream(stream).pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform: (chunk, controller) => {
          if (chunk.type === 'finish') this.finished = true
          controller.enqueue(chunk)
        },
      }),
    )
  }
}

/**
 * The AI SDK's chat client against Docent's v2 endpoint. Sends exactly the contract's fields, remembers the thread
 * id the stream returns, and marks how each answer ended.
 */
export class AssistantChat extends AbstractChat<DocentMessage> {
  declare threadId: string | null
  declare readonly options: ChatOptions
  /** Context of the question being answered, resent on retry. */
  declare lastContext: ContextItem[] | undefined

  constructor(options: ChatOptions) {
    // The transport and callbacks run after construction; they reach the chat through this holder.
    const self = {} as { chat: AssistantChat }
    const state = new LitChatState<DocentMessage>(options.messages, options.onChange)
    const transport = new FinishAwareTransport({
      api: `${options.apiBase}/discovery/v2/assistant/${encodeURIComponent(options.domain)}/message`,
      headers: { authorization: `Bearer ${options.apiKey}` },
      fetch: checkedFetch as typeof fetch,
      prepareSendMessagesRequest: ({ messages, body }) => {
        const context = (body as { context?: ContextItem[] } | undefined)?.context
        const { fp, retrievalPageSize, filter } = options.request()
        return {
          body: {
            fp,
            threadId: self.chat.threadId,
            // Only text travels: sources and metadata of earlier answers are the server's own output.
            messages: messages.map((m) => ({
              id: m.id,
              role: m.role,
              parts: m.parts.filter((p) => p.type === 'text'),
            })),
            retrievalPageSize: retrievalPageSize ?? 5,
            filter: filter ?? null,
            currentPath: location.pathname.slice(0, MAX_CURRENT_PATH),
            ...(context?.length ? { context } : {}),
          } satisfies Omit<AssistantV2Body, 'messages'> & {
            messages: unknown[]
          },
        }
      },
    })
    super({
      state,
      transport,
      generateId: () => randomId('m_'),
      onFinish: ({ message, isAbort, isError, isDisconnect }) => {
        const threadId = message.metadata?.threadId
        if (threadId) self.chat.threadId = threadId
        const end: AnswerEnd = isAbort ? 'stopped' : isError || isDisconnect || !transport.finished ? 'cut-off' : 'complete'
        self.chat.mark(message.id, end)
        options.onEnd(message, end)
      },
      onError: (error) => options.onError(error),
    })
    self.chat = this
    this.options = options
    this.threadId = options.threadId
  }

  get busy() {
    return this.status === 'submitted' || this.status === 'streaming'
  }

  ask(text: string, context?: ContextItem[]) {
    this.lastContext = context
    return this.sendMessage({ text }, context?.length ? { body: { context } } : undefined)
  }

  /** Asks again: the failed, stopped or cut-off answer (or the unanswered question) is replaced by a new answer. */
  retry(messageId?: string) {
    this.clearError()
    return this.regenerate({
      messageId,
      ...(this.lastContext?.length ? { body: { context: this.lastContext } } : {}),
    })
  }

  /** Records how an answer ended in its metadata, which is stored with it. */
  mark(messageId: string, end: AnswerEnd) {
    const index = this.messages.findIndex((message) => message.id === messageId)
    if (index === -1) return
    const message = this.messages[index]!
    this.state.replaceMessage(index, {
      ...message,
      metadata: { ...message.metadata, end },
    })
  }

  /** The page is going away mid-answer: what has arrived is kept, marked as cut off. */
  markInterrupted() {
    if (!this.busy) return
    const last = this.lastMessage
    if (last?.role === 'assistant') this.mark(last.id, 'cut-off')
  }

  /** Thumbs up or down on an answer, with an optional comment, sent to the feedback endpoint. */
  async rate(messageId: string, rating: 'up' | 'down', comment?: string) {
    if (!this.threadId) return
    const { apiBase, domain, apiKey } = this.options
    const body: FeedbackBody = {
      threadId: this.threadId,
      messageId,
      rating,
      ...(comment ? { comment } : {}),
    }
    await checkedFetch(`${apiBase}/discovery/v1/assistant/${encodeURIComponent(domain)}/feedback`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${apiKey}`,
      },
      body: JSON.stringify(body),
    })
  }
}
