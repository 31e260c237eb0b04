import { AbstractChat, DefaultChatTransport, type UIMessage, type UIMessageChunk } from 'ai'
import type {
  AssistantV2Body,
  ContextItem,
  FeedbackBody,
  MAX_MESSAGES as API_MAX_MESSAGES,
  MAX_TOTAL_TEXT as API_MAX_TOTAL_TEXT,
} from '../../shared/assistant.ts'
import { LitChatState } from './chat-state.ts'
import { API_BASE_HINT, checkedFetch, originRefused, policyRefused, serverOrigin, WidgetError } from './errors.ts'
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

// The API's bounds on a request's conversation, typed from shared/ (a type-only import keeps zod out of the bundle).
const MAX_MESSAGES: typeof API_MAX_MESSAGES = 100
const MAX_TOTAL_TEXT: typeof API_MAX_TOTAL_TEXT = 100_000
/** The longest question the API takes: the whole of the conversation's text. */
export const MAX_QUESTION_CHARACTERS = MAX_TOTAL_TEXT

/** A text's length as the API counts it: in code points ("😀" is one character, though two UTF-16 units). */
export function characters(text: string): number {
  let count = 0
  for (const _ of text) count++
  return count
}

interface SentMessage {
  id: string
  role: DocentMessage['role']
  parts: Array<{ type: 'text'; text: string }>
}

/**
 * The newest turns within the API's bounds, opening with a question: the request of a long conversation stays valid,
 * and its thread goes on (the server keeps every turn; a request of the question alone gets the stored ones back).
 * Throws `question_too_long` when the question alone is over them.
 */
export function fitConversation(messages: SentMessage[]): SentMessage[] {
  let start = messages.length
  let total = 0
  while (start > 0 && messages.length - start < MAX_MESSAGES) {
    const size = characters(messages[start - 1]!.parts.map((part) => part.text).join(''))
    if (total + size > MAX_TOTAL_TEXT) break
    total += size
    start--
  }
  if (start === messages.length) {
    throw new WidgetError('question_too_long', `the question is over the API's ${MAX_QUESTION_CHARACTERS} characters`, {
      max: MAX_QUESTION_CHARACTERS,
    })
  }
  while (start < messages.length - 1 && messages[start]!.role !== 'user') start++
  return messages.slice(start)
}

/**
 * Fetch for the answer from the Docent server at `apiBase`: Docent answers 200 with an event stream, and anything else
 * is not Docent's answer. A network error that is the server refusing this page's origin says so.
 */
async function fetchAnswer(apiBase: string, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response
  try {
    response = await checkedFetch(input, init)
  } catch (error) {
    if (!(error instanceof TypeError) || init?.signal?.aborted) throw error
    if (await policyRefused(apiBase)) {
      const server = serverOrigin(apiBase)
      throw new WidgetError('not_set_up', `this page's Content-Security-Policy refuses requests to ${server}`, {
        hint: `add ${server} to the policy's connect-src (see Docent's README, Content-Security-Policy)`,
      })
    }
    if (await originRefused(apiBase)) {
      throw new WidgetError('not_set_up', `${apiBase} answers, but refused this page's origin (${location.origin})`, {
        hint: `add ${location.origin} to the project's allowedOrigins, and check that data-domain names the project`,
      })
    }
    throw error
  }
  const type = response.headers.get('content-type') ?? ''
  if (type.startsWith('text/event-stream')) return response
  void response.body?.cancel().catch(() => {})
  throw new WidgetError(
    'not_set_up',
    `${response.url} answered ${response.status} with ${type || 'no content type'}, not an event stream`,
    {
      hint: API_BASE_HINT,
    },
  )
}

/**
 * The v2 transport, noting whether the stream's `finish` chunk arrived (a stream that just stops is cut off). A
 * stream without a single chunk is an error: something other than Docent answered (Docent always sends `start`).
 */
class FinishAwareTransport extends DefaultChatTransport<DocentMessage> {
  finished = false
  protected override processResponseStream(stream: ReadableStream<Uint8Array>): ReadableStream<UIMessageChunk> {
    this.finished = false
    let chunks = 0
    return super.processResponseStream(stream).pipeThrough(
      new TransformStream<UIMessageChunk, UIMessageChunk>({
        transform: (chunk, controller) => {
          chunks++
          if (chunk.type === 'finish') this.finished = true
          controller.enqueue(chunk)
        },
        flush: (controller) => {
          if (chunks === 0) controller.error(new WidgetError('unexpected_response', 'the answer stream was empty'))
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
      fetch: ((input: RequestInfo | URL, init?: RequestInit) => fetchAnswer(options.apiBase, input, init)) as typeof fetch,
      prepareSendMessagesRequest: ({ messages, body }) => {
        const context = (body as { context?: ContextItem[] } | undefined)?.context
        const { fp, retrievalPageSize, filter } = options.request()
        return {
          body: {
            fp,
            threadId: self.chat.threadId,
            // Only text travels: sources and metadata of earlier answers are the server's own output.
            messages: fitConversation(
              messages.map((m) => ({
                id: m.id,
                role: m.role,
                parts: m.parts.filter((p) => p.type === 'text'),
              })),
            ),
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
        // A stream that failed after the answer began: the answer says it was cut off, with its Retry; the failure
        // is not shown a second time beside it.
        if (isError && self.chat.lastMessage?.id === message.id) self.chat.clearError()
        options.onEnd(message, end)
      },
      onError: (error) => {
        const begun = self.chat.lastMessage?.role === 'assistant'
        options.onError(begun ? new WidgetError('cut_off', error.message, { cause: error }) : error)
      },
    })
    self.chat = this
    this.options = options
    this.threadId = options.threadId
  }

  get busy() {
    return this.status === 'submitted' || this.status === 'streaming'
  }

  /** Asks a question; one over the API's length is refused here, before it is sent or kept. */
  async ask(text: string, context?: ContextItem[]) {
    if (characters(text) > MAX_QUESTION_CHARACTERS) {
      const error = new WidgetError('question_too_long', `the question has ${characters(text)} characters`, {
        max: MAX_QUESTION_CHARACTERS,
      })
      this.options.onError(error)
      this.setStatus({ status: 'error', error })
      return
    }
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
