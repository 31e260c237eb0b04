import type { ChatState, ChatStatus, UIMessage } from 'ai'

/**
 * The AI SDK's chat state for a Lit element: every change asks the host to re-render, as `@ai-sdk/react`
 * does with React state. Lit batches the requests, so a burst of stream chunks renders once per frame.
 */
export class LitChatState<M extends UIMessage> implements ChatState<M> {
  #messages: M[]
  #status: ChatStatus = 'ready'
  #error: Error | undefined
  #onChange: () => void

  constructor(messages: M[], onChange: () => void) {
    this.#messages = messages
    this.#onChange = onChange
  }

  get status(): ChatStatus {
    return this.#status
  }
  set status(status: ChatStatus) {
    this.#status = status
    this.#onChange()
  }
  get error(): Error | undefined {
    return this.#error
  }
  set error(error: Error | undefined) {
    this.#error = error
    this.#onChange()
  }
  get messages(): M[] {
    return this.#messages
  }
  set messages(messages: M[]) {
    this.#messages = [...messages]
    this.#onChange()
  }

  pushMessage = (message: M) => {
    this.#messages = this.#messages.concat(message)
    this.#onChange()
  }
  popMessage = () => {
    this.#messages = this.#messages.slice(0, -1)
    this.#onChange()
  }
  replaceMessage = (index: number, message: M) => {
    // A copy: the SDK keeps mutating the message it streams into, and Lit compares by identity.
    this.#messages = [...this.#messages.slice(0, index), this.snapshot(message), ...this.#messages.slice(index + 1)]
    this.#onChange()
  }
  snapshot = <T>(value: T): T => {
    if (value == null || typeof value !== 'object' || !('parts' in value) || !Array.isArray(value.parts)) return value
    return { ...value, parts: value.parts.map((part: object) => ({ ...part })) }
  }
}
