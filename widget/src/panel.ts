import { html, nothing, type TemplateResult } from 'lit'
import { AssistantChat, type ContextItem, type DocentMessage } from './chat.ts'
import type { DocentChat } from './docent-chat.ts'
import { readableError } from './errors.ts'
import { icons } from './icons.ts'
import { renderMarkdown, safeHref } from './markdown.ts'
import { panelStyles } from './panel-styles.ts'
import { fingerprint } from './storage.ts'

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])'

/** The chat panel: conversation, composer and the AI SDK chat client behind them. Loaded on first open. */
export class Panel {
  readonly chat: AssistantChat
  draft = ''
  announcement = ''
  #copied = new Set<string>()
  #lastStatus = 'ready'
  #stickToBottom = true

  constructor(readonly host: DocentChat) {
    this.chat = new AssistantChat({
      domain: host.domain,
      apiKey: host.apiKey,
      apiBase: host.apiBase.replace(/\/+$/, ''),
      fp: host.fp || fingerprint(),
      retrievalPageSize: host.pageSize,
      filter: host.filter,
      onChange: () => this.#changed(),
    })
    adoptStyles(host)
  }

  focusInput() {
    this.host.renderRoot.querySelector<HTMLTextAreaElement>('textarea')?.focus()
  }

  async ask(text: string, context?: ContextItem[]) {
    const question = text.trim()
    if (!question) return
    if (this.busy) await this.chat.stop()
    this.#stickToBottom = true
    await this.chat.ask(question, context)
  }

  async reset() {
    await this.chat.reset()
    this.host.pendingContext = null
    this.draft = ''
    this.announcement = ''
    this.host.requestUpdate()
  }

  get busy() {
    return this.chat.status === 'submitted' || this.chat.status === 'streaming'
  }

  /** Keeps the newest text in view while it streams, unless the reader scrolled up to read. */
  afterRender() {
    const list = this.host.renderRoot.querySelector<HTMLElement>('.messages')
    if (list && this.#stickToBottom) list.scrollTop = list.scrollHeight
  }

  #changed() {
    const status = this.chat.status
    if (status !== this.#lastStatus) {
      if (status === 'submitted') this.announcement = this.host.text.thinking
      if (status === 'ready' && this.#lastStatus === 'streaming') {
        const answer = textOf(this.chat.lastMessage)
        this.announcement = `${this.host.text.answerReady}: ${answer.slice(0, 300)}`
      }
      if (status === 'error' && this.chat.error) this.announcement = readableError(this.chat.error, this.host.text)
      this.#lastStatus = status
    }
    this.host.requestUpdate()
  }

  #submit = (event: Event) => {
    event.preventDefault()
    if (this.busy) return
    const context = this.host.pendingContext
    const text = this.draft.trim() || (context ? 'Explain the selected text.' : '')
    if (!text) return
    this.draft = ''
    this.host.pendingContext = null
    const textarea = this.host.renderRoot.querySelector<HTMLTextAreaElement>('textarea')
    if (textarea) textarea.value = ''
    void this.ask(text, context ? [context] : undefined)
  }

  #onInputKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) this.#submit(event)
  }

  #onInput = (event: Event) => {
    const textarea = event.target as HTMLTextAreaElement
    this.draft = textarea.value
    textarea.style.height = 'auto'
    textarea.style.height = `${Math.min(textarea.scrollHeight, 160)}px`
  }

  /** Tab and Shift+Tab cycle inside the open panel; focus never falls behind a modal. */
  #trapFocus = (event: KeyboardEvent) => {
    if (event.key !== 'Tab' || this.host.variant === 'inline') return
    const panel = event.currentTarget as HTMLElement
    const focusable = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => el.offsetParent !== null || el === this.host.renderRoot.querySelector('textarea'),
    )
    if (focusable.length === 0) return
    const first = focusable[0]!
    const last = focusable.at(-1)!
    const active = (this.host.renderRoot as ShadowRoot).activeElement
    if (event.shiftKey && (active === first || !panel.contains(active))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (active === last || !panel.contains(active))) {
      event.preventDefault()
      first.focus()
    }
  }

  #copy = async (key: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text)
    } catch {
      copyWithSelection(text)
    }
    this.#copied.add(key)
    this.host.requestUpdate()
    setTimeout(() => {
      this.#copied.delete(key)
      this.host.requestUpdate()
    }, 1500)
  }

  #rate = (message: DocentMessage, rating: 'up' | 'down') => {
    this.chat
      .rate(message.id, rating)
      .then(
        () => (this.announcement = this.host.text.thanks),
        (error: Error) => (this.announcement = readableError(error, this.host.text)),
      )
      .finally(() => this.host.requestUpdate())
  }

  render(): TemplateResult {
    const text = this.host.text
    const { status, error, messages } = this.chat
    const variant = this.host.variant
    const last = messages.at(-1)
    const waiting = status === 'submitted' || (status === 'streaming' && last?.role === 'assistant' && textOf(last) === '')
    return html`
      ${variant === 'modal' ? html`<div class="backdrop" part="backdrop" @click=${() => this.host.hide()}></div>` : nothing}
      <section
        class="panel ${variant}"
        part="panel"
        role=${variant === 'inline' ? 'region' : 'dialog'}
        aria-modal=${variant === 'modal' ? 'true' : nothing}
        aria-labelledby="docent-title"
        @keydown=${this.#trapFocus}
      >
        <header part="header">
          <span class="logo" aria-hidden="true">${icons.sparkle}</span>
          <h2 id="docent-title" part="title">${text.title}</h2>
          <button type="button" class="icon" part="new-thread" aria-label=${text.newThread} title=${text.newThread} @click=${() => this.reset()}>
            ${icons.plus}
          </button>
          ${
            variant === 'inline'
              ? nothing
              : html`<button type="button" class="icon" part="close" aria-label=${text.close} title="${text.close} (Esc)" @click=${() => this.host.hide()}>
                ${icons.close}
              </button>`
          }
        </header>
        <div class="messages" part="messages" role="log" aria-label=${text.title} @scroll=${this.#onScroll}>
          ${messages.length === 0 ? this.#renderWelcome() : messages.map((message) => this.#renderMessage(message))}
          ${waiting ? html`<div class="thinking" part="thinking"><span class="dots" aria-hidden="true"><i></i><i></i><i></i></span>${text.thinking}</div>` : nothing}
          ${
            status === 'error' && error
              ? html`<div class="error" part="error" role="alert">
                <p>${readableError(error, text)}</p>
                <button type="button" class="pill" @click=${() => this.chat.retry()}>${icons.retry} ${text.retry}</button>
              </div>`
              : nothing
          }
        </div>
        <div class="sr-only" aria-live="polite" aria-atomic="true">${this.announcement}</div>
        <form part="composer" @submit=${this.#submit}>
          ${this.host.pendingContext ? this.#renderSelectionChip(this.host.pendingContext) : nothing}
          <div class="composer-row">
            <textarea
              part="input"
              rows="1"
              .value=${this.draft}
              placeholder=${text.placeholder}
              aria-label=${text.placeholder}
              @input=${this.#onInput}
              @keydown=${this.#onInputKeydown}
            ></textarea>
            ${
              this.busy
                ? html`<button type="button" class="send stop" part="stop" aria-label=${text.stop} title=${text.stop} @click=${() => this.chat.stop()}>${icons.stop}</button>`
                : html`<button type="submit" class="send" part="send" aria-label=${text.send} title=${text.send}>${icons.send}</button>`
            }
          </div>
          <p class="disclaimer">${text.disclaimer}</p>
        </form>
      </section>
    `
  }

  #onScroll = (event: Event) => {
    const list = event.currentTarget as HTMLElement
    this.#stickToBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40
  }

  #renderWelcome() {
    const text = this.host.text
    const starters = (this.host.starters ?? []).slice(0, 3)
    return html`<div class="welcome">
      <p>${text.greeting}</p>
      ${
        starters.length
          ? html`<ul class="starters" aria-label=${text.starters}>
            ${starters.map((question) => html`<li><button type="button" part="starter" @click=${() => this.ask(question)}>${question}</button></li>`)}
          </ul>`
          : nothing
      }
    </div>`
  }

  #renderSelectionChip(context: ContextItem) {
    const text = this.host.text
    return html`<div class="chip" part="selection">
      ${icons.quote}
      <span><strong>${text.selection}:</strong> “${context.value.slice(0, 120)}${context.value.length > 120 ? '…' : ''}”</span>
      <button
        type="button"
        class="icon small"
        aria-label=${text.removeSelection}
        @click=${() => {
          this.host.pendingContext = null
          this.host.requestUpdate()
        }}
      >
        ${icons.close}
      </button>
    </div>`
  }

  #renderMessage(message: DocentMessage) {
    const text = this.host.text
    if (message.role === 'user') {
      return html`<div class="message user" part="message user-message"><p>${textOf(message)}</p></div>`
    }
    const answer = textOf(message)
    const streaming = this.busy && message === this.chat.lastMessage
    const sources = sourcesOf(message)
    const cited = message.parts.filter((part) => part.type === 'source-url')
    const rating = this.chat.feedback[message.id]
    const copied = this.#copied.has(message.id)
    const markdown = renderMarkdown(answer, {
      source: (n) => {
        const part = cited[n - 1]
        const href = part?.type === 'source-url' ? safeHref(part.url) : null
        return part?.type === 'source-url' && href ? { href, title: part.title || part.url } : undefined
      },
      copyLabel: text.copyCode,
      onCopy: (code, button) => {
        void this.#copy(`${message.id}:code`, code)
        button.textContent = text.copied
        setTimeout(() => (button.textContent = text.copyCode), 1500)
      },
    })
    return html`<article class="message assistant" part="message assistant-message" aria-label=${text.assistant} aria-busy=${streaming ? 'true' : 'false'}>
      <div class="answer">${markdown}</div>
      ${
        sources.length
          ? html`<nav class="sources" part="sources" aria-label=${text.sources}>
            <p>${text.sources}</p>
            <ul>
              ${sources.map((source) => html`<li><a part="source" href=${source.href}>${icons.page}<span>${source.title}</span></a></li>`)}
            </ul>
          </nav>`
          : nothing
      }
      ${
        streaming || !answer
          ? nothing
          : html`<div class="actions" part="actions">
            <button type="button" class="icon small" aria-label=${copied ? text.copied : text.copy} title=${copied ? text.copied : text.copy} @click=${() => this.#copy(message.id, answer)}>
              ${icons.copy}
            </button>
            <button type="button" class="icon small ${rating === 'up' ? 'on' : ''}" aria-label=${text.helpful} title=${text.helpful} aria-pressed=${rating === 'up' ? 'true' : 'false'} @click=${() => this.#rate(message, 'up')}>
              ${icons.up}
            </button>
            <button type="button" class="icon small ${rating === 'down' ? 'on' : ''}" aria-label=${text.notHelpful} title=${text.notHelpful} aria-pressed=${rating === 'down' ? 'true' : 'false'} @click=${() => this.#rate(message, 'down')}>
              ${icons.down}
            </button>
            ${copied ? html`<span class="note">${text.copied}</span>` : nothing}
          </div>`
      }
    </article>`
  }
}

function textOf(message: DocentMessage | undefined): string {
  return (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('')
}

function sourcesOf(message: DocentMessage): Array<{ href: string; title: string }> {
  const seen = new Set<string>()
  const sources: Array<{ href: string; title: string }> = []
  for (const part of message.parts) {
    if (part.type !== 'source-url') continue
    const href = safeHref(part.url)
    if (!href || seen.has(href)) continue
    seen.add(href)
    sources.push({ href, title: part.title || part.url })
  }
  return sources
}

function adoptStyles(host: DocentChat) {
  const root = host.renderRoot as ShadowRoot
  const sheet = panelStyles.styleSheet
  if (sheet && 'adoptedStyleSheets' in root) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet]
  } else {
    const style = document.createElement('style')
    style.textContent = panelStyles.cssText
    root.append(style)
  }
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
