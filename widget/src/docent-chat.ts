import { html, LitElement, nothing, type PropertyValues } from 'lit'
import type { ContextItem } from './chat.ts'
import { icons } from './icons.ts'
import { type Labels, mergeLabels } from './labels.ts'
import { launcherStyles } from './launcher-styles.ts'
import type { Panel } from './panel.ts'
import { readSelection, type PageSelection } from './selection.ts'

export type Variant = 'floating' | 'modal' | 'inline'

const parseList = (value: string | null) => {
  if (!value) return []
  try {
    const parsed = JSON.parse(value)
    if (Array.isArray(parsed)) return parsed.map(String)
  } catch {
    // not JSON: a `|`-separated list
  }
  return value
    .split('|')
    .map((item) => item.trim())
    .filter(Boolean)
}
const parseJson = (value: string | null) => {
  if (!value) return null
  try {
    return JSON.parse(value)
  } catch {
    return null
  }
}

/**
 * `<docent-chat>`: the launcher and the shell of the chat panel. The panel's code (AI SDK chat client, markdown)
 * is imported the first time the reader opens it, so the script a docs page loads up front stays small.
 */
export class DocentChat extends LitElement {
  static override styles = launcherStyles
  static override properties = {
    domain: {},
    apiKey: { attribute: 'api-key' },
    apiBase: { attribute: 'api-base' },
    variant: { reflect: true },
    theme: { reflect: true },
    starters: { converter: parseList },
    labels: { converter: parseJson },
    placeholder: {},
    fp: {},
    filter: { converter: parseJson },
    pageSize: { attribute: 'page-size', type: Number },
    open: { type: Boolean, reflect: true },
    loading: { state: true },
    loadFailed: { state: true },
    selection: { state: true },
  }

  declare domain: string
  declare apiKey: string
  declare apiBase: string
  declare variant: Variant
  /** `light`, `dark`, or unset to follow `prefers-color-scheme`. */
  declare theme: 'light' | 'dark' | undefined
  declare starters: string[]
  declare labels: Partial<Labels> | null
  declare placeholder: string | undefined
  declare fp: string | undefined
  declare filter: Record<string, unknown> | null
  declare pageSize: number | undefined
  declare open: boolean
  declare loading: boolean
  declare loadFailed: boolean
  declare selection: PageSelection | null
  /** Selected page text the reader chose to ask about, sent as `context` with the next question. */
  pendingContext: ContextItem | null = null
  panel: Panel | null = null
  #panelLoad: Promise<Panel> | null = null
  #returnFocus: HTMLElement | null = null
  #selectionTimer = 0

  constructor() {
    super()
    this.domain = ''
    this.apiKey = ''
    this.apiBase = ''
    this.variant = 'floating'
    this.starters = []
    this.labels = null
    this.filter = null
    this.open = false
    this.loading = false
    this.loadFailed = false
    this.selection = null
  }

  get text(): Labels {
    return mergeLabels({ ...(this.placeholder ? { placeholder: this.placeholder } : {}), ...(this.labels ?? {}) })
  }

  override connectedCallback() {
    super.connectedCallback()
    window.addEventListener('keydown', this.#onKeydown)
    document.addEventListener('selectionchange', this.#onSelectionChange)
    document.addEventListener('click', this.#onPageClick)
    window.addEventListener('scroll', this.#onSelectionChange, { passive: true })
    if (this.variant === 'inline') void this.loadPanel()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    window.removeEventListener('keydown', this.#onKeydown)
    document.removeEventListener('selectionchange', this.#onSelectionChange)
    document.removeEventListener('click', this.#onPageClick)
    window.removeEventListener('scroll', this.#onSelectionChange)
  }

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has('variant') && this.variant === 'inline') void this.loadPanel()
    this.panel?.afterRender()
  }

  /** Loads the panel's code once; later calls share the same import. */
  loadPanel(): Promise<Panel> {
    this.#panelLoad ??= import('./panel.ts').then(
      ({ Panel }) => {
        this.panel = new Panel(this)
        this.loadFailed = false
        this.requestUpdate()
        return this.panel
      },
      (error: unknown) => {
        // A failed chunk download (offline, server restarted with a new build): the next open tries again.
        this.#panelLoad = null
        this.loadFailed = true
        throw error
      },
    )
    return this.#panelLoad
  }

  async show() {
    if (this.variant !== 'inline' && !this.open) {
      const active = deepActiveElement()
      // Nothing focused (the body): focus goes back to the launcher on close.
      this.#returnFocus = active && active !== document.body && !this.contains(active) ? active : null
      this.open = true
    }
    this.loading = !this.panel
    let panel: Panel
    try {
      panel = await this.loadPanel()
    } catch {
      return
    } finally {
      this.loading = false
    }
    await this.updateComplete
    panel.focusInput()
    this.dispatchEvent(new CustomEvent('docent-open', { bubbles: true, composed: true }))
  }

  hide() {
    if (this.variant === 'inline' || !this.open) return
    this.open = false
    this.dispatchEvent(new CustomEvent('docent-close', { bubbles: true, composed: true }))
    // Focus goes back where the reader was (the launcher when they came from it).
    void this.updateComplete.then(() => {
      const target = this.#returnFocus?.isConnected ? this.#returnFocus : this.renderRoot.querySelector<HTMLElement>('.launcher')
      target?.focus()
      this.#returnFocus = null
    })
  }

  async ask(text: string, context?: ContextItem[]) {
    await this.show()
    await this.panel!.ask(text, context)
  }

  async reset() {
    const panel = await this.loadPanel()
    await panel.reset()
  }

  #onKeydown = (event: KeyboardEvent) => {
    if ((event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'i') {
      event.preventDefault()
      if (this.open && this.variant !== 'inline') this.hide()
      else void this.show()
    } else if (event.key === 'Escape' && this.open) {
      event.preventDefault()
      this.hide()
    }
  }

  /** A reader about to open the chat (hovering or focusing the launcher): start loading the panel now. */
  #prefetch = () => {
    this.loadPanel().catch(() => {
      // Reported when the reader opens the panel.
    })
  }

  /** Any element with `data-docent-open` on the page (an "Ask AI" search bar, a help link) opens the chat. */
  #onPageClick = (event: MouseEvent) => {
    const trigger = (event.target as Element | null)?.closest?.('[data-docent-open]')
    if (!trigger) return
    event.preventDefault()
    void this.show()
  }

  #onSelectionChange = () => {
    clearTimeout(this.#selectionTimer)
    this.#selectionTimer = window.setTimeout(() => {
      this.selection = readSelection(this)
    }, 150)
  }

  #askAboutSelection = async () => {
    const selection = this.selection
    if (!selection) return
    this.pendingContext = { type: 'textSelection', value: selection.text, path: location.pathname.slice(0, 200) }
    this.selection = null
    await this.show()
    this.panel?.host.requestUpdate()
  }

  protected override render() {
    const text = this.text
    const selectionButton = this.selection
      ? html`<button
          type="button"
          class="selection-button"
          part="selection-button"
          style="left:${this.selection.left}px;top:${this.selection.top}px"
          @mousedown=${(e: Event) => e.preventDefault()}
          @click=${this.#askAboutSelection}
        >
          ${icons.sparkle} ${text.askSelection}
        </button>`
      : nothing
    if (this.variant === 'inline') return html`${this.panel ? this.panel.render() : nothing}${selectionButton}`
    return html`
      ${
        this.open
          ? nothing
          : html`<button
            type="button"
            class="launcher"
            part="launcher"
            aria-haspopup="dialog"
            aria-keyshortcuts="Control+I Meta+I"
            @click=${() => this.show()}
            @pointerenter=${this.#prefetch}
            @focus=${this.#prefetch}
          >
            ${icons.sparkle}<span>${text.launcher}</span><kbd aria-hidden="true">${text.shortcut}</kbd>
          </button>`
      }
      ${this.open && this.panel ? this.panel.render() : nothing}
      ${this.open && this.loading ? html`<div class="loading" role="status">${text.loading}</div>` : nothing}
      ${
        this.open && this.loadFailed && !this.panel
          ? html`<div class="loading" role="alert">
            ${text.errorNetwork}
            <button type="button" class="link" @click=${() => this.show()}>${text.retry}</button>
            <button type="button" class="link" @click=${() => this.hide()}>${text.close}</button>
          </div>`
          : nothing
      }
      ${selectionButton}
    `
  }
}

/** The focused element, looking inside shadow roots (docs sites built from web components). */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active instanceof HTMLElement ? active : null
}
