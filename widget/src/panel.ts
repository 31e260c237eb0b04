import './zod-jitless.ts'
import { html, LitElement, nothing, type PropertyValues } from 'lit'
import type { ContextItem } from '../../shared/assistant.ts'
import type { SearchFilter } from '../../shared/search.ts'
import { beforeFirst, trimEnd } from '../../shared/trim.ts'
import { ChatController } from './chat-controller.ts'
import { type AnswerEnd, characters, type DocentMessage, MAX_QUESTION_CHARACTERS } from './chat.ts'
import { readableError, retryable, WidgetError } from './errors.ts'
import { EventReporter } from './events.ts'
import { icons } from './icons.ts'
import { defaultLabels, fill, type Labels, loadLabels } from './labels.ts'
import type { Language } from './launcher-labels.ts'
import { MARKDOWN_LINK, type SafeLink, safeLink } from './links.ts'
import { anchor, renderMarkdown } from './markdown.ts'
import { panelStyles } from './panel-styles.ts'
import { type PageResult, searchDocs } from './search.ts'
import { markReopen } from './reopen.ts'
import { ConversationStore } from './storage.ts'
import type { Variant } from './variant.ts'

export type PanelMode = 'chat' | 'search'
type View = 'conversation' | 'history'

/**
 * Every built-in language is written left to right, so the panel is too, whatever `dir` the page has: an Arabic
 * page's widget in English must not read mirrored. Text the reader types and answers in their language take their
 * own direction (`dir="auto"`); code is always left to right (markdown.ts).
 */
const UI_DIRECTION = 'ltr'
const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'
/** The question box counts characters from here on, so the API's limit is in sight before it is reached. */
const COUNT_FROM_CHARACTERS = MAX_QUESTION_CHARACTERS * 0.9
const SEARCH_DELAY_MS = 150
/** A search counts once the reader stops typing this long (or picks a result, or asks): not every keystroke. */
const SEARCH_SETTLE_MS = 1200

/** Defines `<docent-panel>`; the launcher calls it once the panel's chunk has loaded. */
export function definePanel() {
  if (!customElements.get('docent-panel')) {
    customElements.define('docent-panel', DocentPanel)
  }
}

/**
 * `<docent-panel>`: the conversation, the search box, past conversations and the composer. The launcher
 * (`<docent-chat>`) sets its properties and listens to its events: `docent-panel-close` and `docent-panel-mode`
 * (to the launcher), and the public `docent-message`, `docent-feedback`, `docent-error`, `docent-source-click` and
 * `docent-search`, which bubble out of the widget to the page.
 */
export class DocentPanel extends LitElement {
  static override styles = panelStyles
  static override properties = {
    domain: {},
    apiKey: {},
    apiBase: {},
    variant: {},
    side: {},
    language: {},
    labels: { attribute: false },
    placeholder: {},
    starters: { attribute: false },
    fp: {},
    filter: { attribute: false },
    pageSize: { type: Number },
    logo: {},
    supportUrl: {},
    searchEnabled: { type: Boolean },
    mode: {},
    open: { type: Boolean },
    pendingContext: { attribute: false },
    view: { state: true },
    dictionary: { state: true },
    query: { state: true },
    results: { state: true },
    searchState: { state: true },
    active: { state: true },
    announcement: { state: true },
    commenting: { state: true },
    waitOver: { state: true },
    draftLength: { state: true },
    refusedTooLong: { state: true },
  }

  declare domain: string
  declare apiKey: string
  declare apiBase: string
  declare variant: Variant
  declare side: 'left' | 'right'
  declare language: Language
  declare labels: Record<string, string> | null
  declare placeholder: string | undefined
  declare starters: string[]
  declare fp: string | undefined
  declare filter: SearchFilter | null
  declare pageSize: number | undefined
  declare logo: string | undefined
  declare supportUrl: string | undefined
  declare searchEnabled: boolean
  declare mode: PanelMode
  declare open: boolean
  declare pendingContext: ContextItem | null
  declare view: View
  declare dictionary: Labels
  declare query: string
  declare results: PageResult[]
  declare searchState: 'idle' | 'loading' | 'done' | 'failed'
  declare active: number
  declare announcement: string
  /** The answer whose 👎 is waiting for an optional comment. */
  declare commenting: string | null
  /** A 429's wait is over: Retry is offered again. */
  declare waitOver: boolean
  /** The question's length once it nears the API's limit (null before: typing need not re-render the conversation). */
  declare draftLength: number | null
  /** Send was pressed with a question over the limit. */
  declare refusedTooLong: boolean

  readonly chat = new ChatController(this, (domain) => new ConversationStore(domain))
  readonly #events = new EventReporter(() => ({
    url: `${trimEnd(this.apiBase, '/')}/discovery/v1/events/${encodeURIComponent(this.domain)}`,
    apiKey: this.apiKey,
  }))
  draft = ''
  #copied = new Set<string>()
  #lastStatus = 'ready'
  #stickToBottom = true
  #searchTimer: ReturnType<typeof setTimeout> | undefined
  #settleTimer: ReturnType<typeof setTimeout> | undefined
  #searchAbort: AbortController | null = null
  #reportedQuery = ''
  #waitTimer: ReturnType<typeof setTimeout> | undefined

  constructor() {
    super()
    this.domain = ''
    this.apiKey = ''
    this.apiBase = ''
    this.variant = 'floating'
    this.side = 'right'
    this.language = 'en'
    this.labels = null
    this.starters = []
    this.filter = null
    this.searchEnabled = true
    this.mode = 'chat'
    this.open = false
    this.pendingContext = null
    this.view = 'conversation'
    this.dictionary = defaultLabels
    this.query = ''
    this.results = []
    this.searchState = 'idle'
    this.active = 0
    this.announcement = ''
    this.commenting = null
    this.waitOver = false
    this.draftLength = null
    this.refusedTooLong = false
  }

  get text(): Labels {
    return {
      ...this.dictionary,
      ...(this.placeholder ? { placeholder: this.placeholder } : {}),
      ...(this.labels ?? {}),
    }
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    this.#changed()
    if (changed.has('language')) {
      const language = this.language
      void loadLabels(language).then((labels) => {
        if (this.language === language) this.dictionary = labels
      })
    }
    if (changed.has('mode') && this.mode === 'search') {
      this.view = 'conversation'
    }
  }

  protected override updated(changed: PropertyValues<this>) {
    // Keeps the newest text in view while it streams, unless the reader scrolled up to read.
    const list = this.renderRoot.querySelector<HTMLElement>('.messages')
    if (list && this.#stickToBottom) list.scrollTop = list.scrollHeight
    if (changed.has('mode') && changed.get('mode') !== undefined && this.open) {
      this.focusInput()
    }
  }

  focusInput() {
    const selector = this.mode === 'search' ? 'input[type="search"]' : 'textarea.question'
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus()
  }

  async ask(text: string, context?: ContextItem[]) {
    const question = text.trim()
    if (!question) return
    this.#setMode('chat')
    this.view = 'conversation'
    const chat = this.chat.chat
    if (chat.busy) await chat.stop()
    this.#stickToBottom = true
    this.#changed()
    await chat.ask(question, context)
  }

  async reset() {
    await this.chat.open(null)
    this.#emitToHost('docent-panel-context', null)
    this.draft = ''
    this.draftLength = null
    this.refusedTooLong = false
    this.announcement = ''
    this.view = 'conversation'
    this.#setMode('chat')
  }

  // --- called by the chat controller ---

  answered(message: DocentMessage, end: AnswerEnd, threadId: string | null) {
    if (end === 'complete') {
      this.announcement = `${this.text.answerReady}: ${plainText(textOf(message)).slice(0, 1000)}`
    }
    this.#emit('message', {
      threadId,
      messageId: message.id,
      text: textOf(message),
      end,
      resolution: message.metadata?.resolution ?? null,
      sources: message.parts.flatMap((part) => (part.type === 'source-url' ? [{ url: part.url, title: part.title ?? '' }] : [])),
    })
    this.requestUpdate()
  }

  failed(error: Error) {
    // The failure's alert announces it; a cut-off answer shows no alert (its note says so), so only that one is announced here.
    this.announcement = error instanceof WidgetError && error.code === 'cut_off' ? readableError(error, this.text, this.language) : ''
    const status = (error as { status?: number }).status
    const wait = (error as { retryAfterSeconds?: number | null }).retryAfterSeconds
    this.waitOver = false
    clearTimeout(this.#waitTimer)
    if (status === 429 && typeof wait === 'number') {
      this.#waitTimer = setTimeout(() => (this.waitOver = true), wait * 1000)
    }
    this.#emit('error', { message: error.message, status: status ?? null })
  }

  #changed() {
    const status = this.chat.chat.status
    if (status !== this.#lastStatus) {
      if (status === 'submitted') this.announcement = this.text.thinking
      this.#lastStatus = status
    }
  }

  #emit(name: string, detail: object) {
    this.dispatchEvent(
      new CustomEvent(`docent-${name}`, {
        bubbles: true,
        composed: true,
        detail,
      }),
    )
  }

  /** Events for the launcher only: they stop at its shadow root. */
  #emitToHost(name: string, detail: unknown) {
    this.dispatchEvent(new CustomEvent(name, { detail }))
  }

  #setMode(mode: PanelMode) {
    if (this.mode === mode) return
    this.mode = mode
    this.#emitToHost('docent-panel-mode', mode)
  }

  #close = () => {
    this.#settleSearch()
    this.#emitToHost('docent-panel-close', null)
  }

  // --- chat ---

  #submit = (event: Event) => {
    event.preventDefault()
    const chat = this.chat.chat
    if (chat.busy) return
    const context = this.pendingContext
    const text = this.draft.trim() || (context ? this.text.explainSelection : '')
    if (!text) return
    if (characters(text) > MAX_QUESTION_CHARACTERS) {
      // Refused here, with the text kept for the reader to shorten: the API would refuse the whole request.
      this.refusedTooLong = true
      return
    }
    this.draft = ''
    this.draftLength = null
    this.#emitToHost('docent-panel-context', null)
    const textarea = this.renderRoot.querySelector<HTMLTextAreaElement>('textarea.question')
    if (textarea) {
      textarea.value = ''
      // Back to one line: the box grew with the question just sent.
      textarea.style.height = ''
    }
    void this.ask(text, context ? [context] : undefined)
  }

  #onInputKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      this.#submit(event)
    }
  }

  #onInput = (event: Event) => {
    const textarea = event.target as HTMLTextAreaElement
    this.draft = textarea.value
    // Code points, as the API counts them; a short draft is not counted at all.
    const length = this.draft.length >= COUNT_FROM_CHARACTERS ? characters(this.draft) : 0
    this.draftLength = length >= COUNT_FROM_CHARACTERS ? length : null
    if (length <= MAX_QUESTION_CHARACTERS) this.refusedTooLong = false
    textarea.style.height = 'auto'
    textarea.style.height = `${Math.min(textarea.scrollHeight, 160)}px`
  }

  #retry = (messageId?: string) => {
    this.#stickToBottom = true
    void this.chat.chat.retry(messageId)
  }

  #copy = async (key: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      copyWithSelection(text)
    }
    this.#copied.add(key)
    this.requestUpdate()
    setTimeout(() => {
      this.#copied.delete(key)
      this.requestUpdate()
    }, 1500)
  }

  #rate = (message: DocentMessage, rating: 'up' | 'down', comment?: string) => {
    const threadId = this.chat.chat.threadId
    this.commenting = rating === 'down' && comment === undefined ? message.id : null
    this.chat.rate(message.id, rating, comment).then(
      () => {
        this.announcement = this.text.thanks
        this.#emit('feedback', {
          threadId,
          messageId: message.id,
          rating,
          comment: comment ?? null,
        })
      },
      (error: Error) => (this.announcement = readableError(error, this.text, this.language)),
    )
  }

  #sendComment = (event: Event, message: DocentMessage) => {
    event.preventDefault()
    const comment = new FormData(event.target as HTMLFormElement).get('comment')?.toString().trim().slice(0, 2000)
    if (comment) this.#rate(message, 'down', comment)
    this.commenting = null
  }

  /** A click on an answer's source or link: reported, and a link on this site brings the panel back on that page. */
  #onAnswerClick = (event: MouseEvent, message: DocentMessage) => {
    const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
    if (!link) return
    const sources = sourceParts(message)
    const position = sources.findIndex((part) => sameTarget(part.url, link.href))
    const detail = {
      url: link.href,
      title: link.title || link.textContent?.trim() || '',
      messageId: message.id,
      threadId: this.chat.chat.threadId,
      position: position === -1 ? null : position + 1,
    }
    this.#emit('source-click', detail)
    if (position !== -1) {
      this.#events.report({
        type: 'source_click',
        path: new URL(link.href).pathname.slice(0, 500),
        position: position + 1,
        ...(detail.threadId ? { threadId: detail.threadId } : {}),
        messageId: message.id,
      })
      // Sent now: the click may be leaving the page.
      this.#events.flush()
    }
    const leavesInThisTab = !link.target && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey && event.button === 0
    if (leavesInThisTab && new URL(link.href).origin === location.origin) {
      markReopen()
    }
  }

  #onPanelKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && this.commenting) {
      // Escape closes the innermost thing open: the 👎 comment form before the panel.
      event.stopPropagation()
      this.#closeComment()
    } else this.#trapFocus(event)
  }

  /** Closes the 👎 comment form; focus goes back to that 👎 when it was in the form. */
  #closeComment() {
    const id = this.commenting
    const form = this.renderRoot.querySelector('.feedback-form')
    const hadFocus = form?.contains((this.renderRoot as ShadowRoot).activeElement) ?? false
    this.commenting = null
    if (hadFocus && id) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[data-not-helpful="${CSS.escape(id)}"]`)?.focus())
    }
  }

  /** Tab and Shift+Tab cycle inside the open panel; focus never falls behind it. */
  #trapFocus(event: KeyboardEvent) {
    if (event.key !== 'Tab' || this.variant === 'inline') return
    const panel = event.currentTarget as HTMLElement
    const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null)
    if (focusable.length === 0) return
    const first = focusable[0]!
    const last = focusable.at(-1)!
    const active = (this.renderRoot as ShadowRoot).activeElement
    if (event.shiftKey && (active === first || !panel.contains(active))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
      event.preventDefault()
      first.focus()
    }
  }

  #onScroll = (event: Event) => {
    const list = event.currentTarget as HTMLElement
    this.#stickToBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40
  }

  // --- search ---

  #onSearchInput = (event: Event) => {
    this.query = (event.target as HTMLInputElement).value
    this.active = 0
    clearTimeout(this.#searchTimer)
    clearTimeout(this.#settleTimer)
    const query = this.query.trim()
    if (!query) {
      this.#searchAbort?.abort()
      this.results = []
      this.searchState = 'idle'
      return
    }
    this.#searchTimer = setTimeout(() => void this.#runSearch(query), SEARCH_DELAY_MS)
  }

  async #runSearch(query: string) {
    this.#searchAbort?.abort()
    const abort = new AbortController()
    this.#searchAbort = abort
    this.searchState = 'loading'
    try {
      const results = await searchDocs(
        {
          apiBase: trimEnd(this.apiBase, '/'),
          domain: this.domain,
          apiKey: this.apiKey,
          filter: this.filter,
        },
        query,
        abort.signal,
      )
      if (abort.signal.aborted) return
      this.results = results
      this.searchState = 'done'
      this.announcement = results.length ? `${this.text.results}: ${results.length}` : fill(this.text.searchEmpty, { query })
      this.#settleTimer = setTimeout(() => this.#settleSearch(), SEARCH_SETTLE_MS)
    } catch (error) {
      if (abort.signal.aborted) return
      this.results = []
      this.searchState = 'failed'
      this.#emit('error', { message: String(error), during: 'search' })
    }
  }

  /** Reports the search the reader settled on, once. */
  #settleSearch() {
    clearTimeout(this.#settleTimer)
    const query = this.query.trim()
    if (!query || this.searchState !== 'done' || query === this.#reportedQuery) return
    this.#reportedQuery = query
    this.#events.report({
      type: 'search',
      query: query.slice(0, 500),
      resultCount: this.results.length,
    })
    this.#emit('search', { query, resultCount: this.results.length })
  }

  #onSearchKeydown = (event: KeyboardEvent) => {
    const count = this.results.length + 1
    if (event.key === 'ArrowDown') {
      event.preventDefault()
      this.active = (this.active + 1) % count
    } else if (event.key === 'ArrowUp') {
      event.preventDefault()
      this.active = (this.active - 1 + count) % count
    } else if (event.key === 'Enter' && !event.isComposing) {
      event.preventDefault()
      this.#choose(this.active)
    }
    this.renderRoot.querySelector(`#docent-option-${this.active}`)?.scrollIntoView({ block: 'nearest' })
  }

  /** Option 0 asks the assistant; the others open a page. */
  #choose(index: number, event?: MouseEvent) {
    const query = this.query.trim()
    if (index === 0) {
      if (!query) return
      this.#settleSearch()
      this.query = ''
      this.results = []
      this.searchState = 'idle'
      void this.ask(query)
      return
    }
    const result = this.results[index - 1]
    if (!result) return
    this.#settleSearch()
    this.#events.report({
      type: 'search_result_click',
      query: query.slice(0, 500),
      path: result.path.slice(0, 500),
      position: index,
    })
    this.#events.flush()
    const newTab = event && (event.metaKey || event.ctrlKey || event.button === 1)
    if (newTab || result.link.external) {
      open(result.link.href, '_blank', 'noopener')
    } else location.assign(result.link.href)
  }

  // --- rendering ---

  protected override render() {
    const text = this.text
    const variant = this.variant
    const dialog = variant !== 'inline'
    return html`
      ${variant === 'modal' ? html`<div class="backdrop" part="backdrop" @click=${this.#close}></div>` : nothing}
      <section
        class="panel ${variant} ${this.side === 'left' ? 'left' : ''}"
        part="panel"
        lang=${this.language}
        dir=${UI_DIRECTION}
        role=${dialog ? 'dialog' : 'region'}
        aria-modal=${dialog ? 'true' : nothing}
        aria-labelledby="docent-title"
        @keydown=${this.#onPanelKeydown}
      >
        <div class="header" part="header">
          ${this.#renderLogo()}
          <h2 id="docent-title" part="title">${text.title}</h2>
          <div class="tools">
          ${
            this.searchEnabled
              ? html`
              <div class="modes" role="group" aria-label=${text.modes}>
                <button type="button" aria-pressed=${this.mode === 'search'} @click=${() => this.#setMode('search')}>
                              ${text.searchTab}
                            </button>
                <button type="button" aria-pressed=${this.mode === 'chat'}
                  @click=${() => this.#setMode('chat')}>${text.chatTab}</button>
              </div>
            `
              : nothing
          } ${
            this.mode === 'chat'
              ? html`
              <button
                type="button"
                class="icon"
                part="history-button"
                aria-label=${text.history}
                title=${text.history}
                aria-pressed=${this.view === 'history'}
                @click=${() => (this.view = this.view === 'history' ? 'conversation' : 'history')}
              >
                ${icons.history}
              </button>
              <button type="button" class="icon" part="new-thread" aria-label=${text.newThread}
                title=${text.newThread} @click=${() => this.reset()}>
                ${icons.plus}
              </button>
            `
              : nothing
          } ${
            dialog
              ? html`
              <button type="button" class="icon" part="close" aria-label=${text.close}
                title="${text.close} (Esc)" @click=${this.#close}>
                            ${icons.close}
                          </button>
            `
              : nothing
          }
          </div>
        </div>
        ${this.mode === 'search' ? this.#renderSearch() : this.view === 'history' ? this.#renderHistory() : this.#renderConversation()}
        <div class="sr-only" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      </section>
    `
  }

  #renderLogo() {
    const logo = this.logo && /^(https?:|data:image\/|\/)/i.test(this.logo) ? this.logo : null
    return logo
      ? html`
        <span class="logo image"
          aria-hidden="true"><img src=${logo} alt="" /></span>
      `
      : html`<span class="logo" aria-hidden="true">${icons.sparkle}</span>`
  }

  #renderSearch() {
    const text = this.text
    const query = this.query.trim()
    const expanded = Boolean(query)
    const option = (index: number) => `docent-option-${index}`
    return html`
      <div class="search-box" part="search">
        ${icons.search}
        <input
          type="search"
          part="search-input"
          role="combobox"
          aria-label=${text.searchPlaceholder}
          aria-expanded=${expanded ? 'true' : 'false'}
          aria-controls="docent-results"
          aria-autocomplete="list"
          aria-activedescendant=${expanded ? option(this.active) : nothing}
          placeholder=${text.searchPlaceholder}
          .value=${this.query}
          @input=${this.#onSearchInput}
          @keydown=${this.#onSearchKeydown}
        />
      </div>
      ${
        expanded
          ? html`<ul class="results" id="docent-results" role="listbox" aria-label=${text.results}>
          <li
            id=${option(0)}
            class="ask"
            role="option"
            aria-selected=${this.active === 0 ? 'true' : 'false'}
            @click=${() => this.#choose(0)}
          >
            <span class="title">${icons.sparkle}${fill(text.askAi, { query })}</span>
          </li>
          ${this.results.map(
            (result, i) =>
              html`
              <li
                id=${option(i + 1)}
                part="result"
                role="option"
                aria-selected=${this.active === i + 1 ? 'true' : 'false'}
                @click=${(event: MouseEvent) => this.#choose(i + 1, event)}
                @auxclick=${(event: MouseEvent) => this.#choose(i + 1, event)}
              >
                            <span class="title">${icons.page}${result.title}</span>
                            ${result.snippet ? html`<span class="snippet">${result.snippet}</span>` : nothing} ${
                              result.sections.length
                                ? html`<span class="sections">${result.sections.map((section) => section.heading).join(' · ')}</span>`
                                : nothing
                            }
                          </li>
            `,
          )}
        </ul>`
          : html`<p class="search-status">${text.searchHint}</p>`
      } ${
        this.searchState === 'done' && expanded && this.results.length === 0
          ? html`<p class="search-status">${fill(text.searchEmpty, { query })}</p>`
          : nothing
      } ${this.searchState === 'failed' ? html`<p class="search-status">${text.searchFailed}</p>` : nothing}
    `
  }

  #renderHistory() {
    const text = this.text
    const conversations = this.chat.conversations
    const date = new Intl.DateTimeFormat(this.language, {
      dateStyle: 'medium',
      timeStyle: 'short',
    })
    return html`
      <div class="messages" part="history">
        ${conversations.length === 0 ? html`<p class="search-status">${text.historyEmpty}</p>` : nothing}
        <ul class="history" aria-label=${text.history}>
          ${conversations.map(
            (conversation) =>
              html`
              <li class=${conversation.id === this.chat.conversationId ? 'current' : ''}>
                <button
                  type="button"
                  class="open"
                  aria-current=${conversation.id === this.chat.conversationId ? 'true' : nothing}
                  @click=${async () => {
                    await this.chat.open(conversation.id)
                    this.view = 'conversation'
                    await this.updateComplete
                    this.focusInput()
                  }}
                >
                  <span>${conversation.title || text.newThread}</span>
                  <small>${date.format(conversation.updatedAt)}</small>
                </button>
                <button
                  type="button"
                  class="icon small"
                  aria-label="${text.deleteConversation}: ${conversation.title}"
                  title=${text.deleteConversation}
                  @click=${() => this.chat.remove(conversation.id)}
                >
                              ${icons.trash}
                            </button>
              </li>
            `,
          )}
        </ul>
      </div>
    `
  }

  #renderConversation() {
    const text = this.text
    const chat = this.chat.chat
    const { status, error, messages } = chat
    const last = messages.at(-1)
    const busy = chat.busy
    const waiting = status === 'submitted' || (status === 'streaming' && last?.role === 'assistant' && textOf(last) === '')
    const unanswered = !busy && status !== 'error' && last?.role === 'user'
    const canRetry = error && (retryable(error) || this.waitOver)
    const over = (this.draftLength ?? 0) > MAX_QUESTION_CHARACTERS
    const number = new Intl.NumberFormat(this.language)
    return html`
      <div class="messages" part="messages" role="log" aria-live="off"
        aria-label=${text.conversation} @scroll=${this.#onScroll}>
        ${messages.length === 0 ? this.#renderWelcome() : messages.map((message) => this.#renderMessage(message))} ${
          waiting
            ? html`
            <div class="thinking"
              part="thinking"><span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${text.thinking}</div>
          `
            : nothing
        } ${
          unanswered
            ? html`
            <p
              class="ended">${
                text.noAnswer
              } <button type="button" class="pill" @click=${() => this.#retry()}>${icons.retry} ${text.retry}</button></p>
          `
            : nothing
        } ${
          status === 'error' && error
            ? html`
            <div class="error" part="error" role="alert">
              <p>${readableError(error, text, this.language)}</p>
              ${
                canRetry
                  ? html`
                  <button type="button" class="pill"
                    @click=${() => this.#retry()}>${icons.retry} ${text.retry}</button>
                `
                  : nothing
              }
            </div>
          `
            : nothing
        }
      </div>
      <form part="composer" @submit=${this.#submit}>
        ${this.pendingContext ? this.#renderSelectionChip(this.pendingContext) : nothing}
        <div class="composer-row">
          <textarea
            class="question"
            part="input"
            rows="1"
            .value=${this.draft}
            dir="auto"
            placeholder=${text.placeholder}
            aria-label=${text.placeholder}
            aria-describedby=${this.draftLength === null ? nothing : 'docent-count'}
            aria-invalid=${over ? 'true' : nothing}
            @input=${this.#onInput}
            @keydown=${this.#onInputKeydown}
          ></textarea>
          ${
            busy
              ? html`
              <button type="button" class="send stop" part="stop" aria-label=${text.stop}
                title=${text.stop} @click=${() => chat.stop()}>${icons.stop}</button>
            `
              : html`
              <button type="submit" class="send" part="send" aria-label=${text.send}
                title=${text.send}>${icons.send}</button>
            `
          }
        </div>
        ${
          this.draftLength === null
            ? nothing
            : html`<p class="count ${over ? 'over' : ''}" id="docent-count">${fill(text.characterCount, { count: number.format(this.draftLength), max: number.format(MAX_QUESTION_CHARACTERS) })}</p>`
        }
        ${this.refusedTooLong ? html`<p class="too-long" role="alert">${fill(text.tooLong, { max: number.format(MAX_QUESTION_CHARACTERS) })}</p>` : nothing}
        <p class="disclaimer">${text.disclaimer}</p>
      </form>
    `
  }

  #renderWelcome() {
    const text = this.text
    const starters = (this.starters ?? []).slice(0, 3)
    return html`<div class="welcome">
      <p>${text.greeting}</p>
      ${
        starters.length
          ? html`<ul class="starters" aria-label=${text.starters}>
          ${starters.map(
            (question) => html`<li><button type="button" part="starter" @click=${() => this.ask(question)}>${question}</button></li>`,
          )}
        </ul>`
          : nothing
      }
    </div>`
  }

  #renderSelectionChip(context: ContextItem) {
    const text = this.text
    return html`<div class="chip" part="selection">
      ${icons.quote}
      <span><strong>${text.selection}:</strong> “${context.value.slice(0, 120)}${context.value.length > 120 ? '…' : ''}”</span>
      <button type="button" class="icon small" aria-label=${text.removeSelection} @click=${() =>
        this.#emitToHost('docent-panel-context', null)}>
        ${icons.close}
      </button>
    </div>`
  }

  #renderMessage(message: DocentMessage) {
    const text = this.text
    const chat = this.chat.chat
    if (message.role === 'user') {
      return html`
        <article class="message user" part="message user-message"
          aria-label=${text.you}>
          <p dir="auto">${textOf(message)}</p>
        </article>
      `
    }
    const answer = textOf(message)
    // Each answer's sources are a landmark of their own: numbered, so a landmark list tells them apart.
    const answerNumber = chat.messages.filter((each) => each.role === 'assistant').indexOf(message) + 1
    const streaming = chat.busy && message === chat.lastMessage
    const isLast = message === chat.lastMessage
    const end = message.metadata?.end
    const incomplete = !streaming && (end === 'stopped' || end === 'cut-off')
    const cited = sourceParts(message)
    const sources = groupSources(cited, answer)
    const rating = this.chat.feedback[message.id]
    const copied = this.#copied.has(message.id)
    const support = message.metadata?.resolution === 'unanswered' && !streaming && this.supportUrl ? safeLink(this.supportUrl) : null
    const markdown = renderMarkdown(answer, {
      source: (n) => {
        const part = cited[n - 1]
        const link = part ? safeLink(part.url) : null
        const title = part?.title || part?.url || ''
        return link ? { href: link.href, title, label: fill(text.source, { n, title }) } : undefined
      },
      copyLabel: text.copyCode,
      onCopy: (code, button) => {
        void this.#copy(`${message.id}:code`, code)
        button.textContent = text.copied
        setTimeout(() => (button.textContent = text.copyCode), 1500)
      },
    })
    return html`
      <article
        class="message assistant"
        part="message assistant-message"
        aria-label=${text.assistant}
        aria-busy=${streaming ? 'true' : 'false'}
        @click=${(event: MouseEvent) => this.#onAnswerClick(event, message)}
        @auxclick=${(event: MouseEvent) => this.#onAnswerClick(event, message)}
      >
            <div class="answer" dir="auto">${markdown}</div>
            ${
              sources.length
                ? html`
                <nav class="sources" part="sources" aria-label=${fill(text.sourcesOf, { n: answerNumber })}>
                  <h3>${text.sources}</h3>
                  <ul>
                    ${sources.map(
                      (source) => html`<li>${anchor(source.link, html`${icons.page}<span part="source">${source.title}</span>`)}</li>`,
                    )}
                  </ul>
                </nav>
              `
                : nothing
            } ${
              support ? html`<p class="support" part="support">${text.unanswered} ${anchor(support, text.contactSupport)}</p>` : nothing
            } ${
              incomplete
                ? html`<p class="ended" part="ended">
          ${end === 'stopped' ? text.stopped : text.cutOff} ${
            isLast
              ? html`
                    <button type="button" class="pill"
                      @click=${() => this.#retry(message.id)}>${icons.retry} ${text.retry}</button>
                  `
              : nothing
          }
        </p>`
                : nothing
            } ${
              streaming || !answer
                ? nothing
                : html`<div class="actions" part="actions">
          <button type="button" class="icon small" aria-label=${copied ? text.copied : text.copy} title=${
            copied ? text.copied : text.copy
          } @click=${() => this.#copy(message.id, answer)}>
            ${icons.copy}
          </button>
          ${
            incomplete
              ? nothing
              : html`
                <button type="button" class="icon small ${rating === 'up' ? 'on' : ''}" aria-label=${text.helpful}
                  title=${text.helpful} aria-pressed=${rating === 'up' ? 'true' : 'false'} @click=${() => this.#rate(message, 'up')}>
                  ${icons.up}
                </button>
                <button type="button" class="icon small ${rating === 'down' ? 'on' : ''}" aria-label=${text.notHelpful}
                  data-not-helpful=${message.id}
                  title=${text.notHelpful} aria-pressed=${rating === 'down' ? 'true' : 'false'} @click=${() => this.#rate(message, 'down')}>
                  ${icons.down}
                </button>
              `
          } ${copied ? html`<span class="note">${text.copied}</span>` : nothing}
        </div>`
            } ${
              this.commenting === message.id
                ? html`
                <form class="feedback-form" part="feedback-form" @submit=${(event: Event) => this.#sendComment(event, message)}>
                  <label for="docent-comment-${message.id}">${text.commentPrompt}</label>
                  <textarea id="docent-comment-${message.id}" name="comment" maxlength="2000"
                    placeholder=${text.commentPlaceholder}></textarea>
                  <div class="row">
                    <button type="submit" class="pill">${text.sendComment}</button>
                    <button type="button" class="pill" @click=${() => this.#closeComment()}>${text.skip}</button>
                  </div>
                </form>
              `
                : nothing
            }
          </article>
    `
  }
}

type SourcePart = { url: string; title: string }

function textOf(message: DocentMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('')
}

/** Markdown as a screen reader should hear it: no asterisks, fences or link targets. */
function plainText(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, '')
    .replace(MARKDOWN_LINK, '$1')
    .replace(/[*_`#>]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
}

function sourceParts(message: DocentMessage): SourcePart[] {
  return message.parts.flatMap((part) => (part.type === 'source-url' ? [{ url: part.url, title: part.title || part.url }] : []))
}

/** The same page (a chip and a citation may link different sections of it). */
function sameTarget(a: string, b: string): boolean {
  const link = safeLink(a)
  return link !== null && beforeFirst(link.href, '#') === beforeFirst(b, '#')
}

/**
 * The sources to list under an answer: one chip per page (sections of one page are not five chips), and only the
 * ones the answer cites when it cites any. A chip links the page's first section the answer used, anchor and all, as
 * its `[n]` does.
 */
function groupSources(parts: SourcePart[], answer: string): Array<{ link: SafeLink; title: string }> {
  const cited = new Set([...answer.matchAll(/\[(\d{1,2})\]/g)].map((match) => Number(match[1])))
  const pages = new Map<string, { link: SafeLink; title: string }>()
  parts.forEach((part, index) => {
    if (cited.size && !cited.has(index + 1)) return
    const link = safeLink(part.url)
    if (!link) return
    const page = beforeFirst(link.href, '#')
    if (!pages.has(page)) {
      pages.set(page, {
        link,
        title: part.title.split(' › ')[0] ?? part.title,
      })
    }
  })
  return [...pages.values()]
}

/** Clipboard fallback for pages without the async clipboard (plain http). */
function copyWithSelection(text: string) {
  const area = document.createElement('textarea')
  area.value = text
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.append(area)
  area.select()
  document.execCommand('copy')
  area.remove()
}
