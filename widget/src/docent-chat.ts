import { html, LitElement, nothing, type PropertyValues } from 'lit'
import type { ContextItem } from '../../shared/assistant.ts'
import { sparkle } from './launcher-icons.ts'
import { dictionaries, enLauncher, type Language, type LauncherLabels, pickLanguage } from './launcher-labels.ts'
import { launcherStyles } from './launcher-styles.ts'
import type { DocentPanel, PanelMode } from './panel.ts'
import { type PageSelection, readSelection } from './selection.ts'
import { takeReopen } from './reopen.ts'
import { type Scheme, watchScheme } from './theme.ts'
import type { Variant } from './variant.ts'

export type { Variant } from './variant.ts'

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
/** On unless the attribute says `false`/`off`, so `data-search="false"` turns a feature off from a script tag. */
const onUnlessFalse = {
  fromAttribute: (value: string | null) => value === null || !/^(false|off|0|no)$/i.test(value),
}

const PANEL_LOAD_TIMEOUT_MS = 20_000

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent)

/** Typing in the page's own fields and editors: Ctrl+I (italics) and Ctrl+K (links) belong to them there. */
function isEditable(target: EventTarget | undefined): boolean {
  if (!(target instanceof HTMLElement)) return false
  return (
    target.isContentEditable ||
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  )
}

/**
 * `<docent-chat>`: the launcher, shortcuts and page integration. The panel (`<docent-panel>`: chat, search,
 * markdown, the AI SDK client) is a separate element defined the first time the reader opens it, so the script a
 * docs page loads up front stays small. They talk through properties (down) and events (up).
 */
export class DocentChat extends LitElement {
  static override styles = launcherStyles
  static override properties = {
    domain: {},
    apiKey: { attribute: 'api-key' },
    apiBase: { attribute: 'api-base' },
    variant: { reflect: true },
    theme: { reflect: true },
    side: { reflect: true },
    align: { reflect: true },
    language: { attribute: 'lang' },
    starters: { converter: parseList },
    labels: { converter: parseJson },
    placeholder: {},
    fp: {},
    filter: { converter: parseJson },
    pageSize: { attribute: 'page-size', type: Number },
    logo: {},
    supportUrl: { attribute: 'support-url' },
    askSelection: { attribute: 'ask-selection', converter: onUnlessFalse },
    search: { converter: onUnlessFalse },
    open: { type: Boolean, reflect: true },
    mode: { state: true },
    scheme: { reflect: true },
    loading: { state: true },
    loadFailed: { state: true },
    panelReady: { state: true },
    selection: { state: true },
    pendingContext: { state: true },
    dictionary: { state: true },
  }

  declare domain: string
  declare apiKey: string
  declare apiBase: string
  declare variant: Variant
  /** `light`, `dark`, or unset/`auto`: the page's own switch, else the reader's system setting. */
  declare theme: 'light' | 'dark' | 'auto' | undefined
  declare side: 'right' | 'left'
  declare align: 'bottom' | 'center'
  /** `lang` attribute: the UI language; unset follows `<html lang>`. */
  declare language: string | undefined
  declare starters: string[]
  declare labels: Record<string, string> | null
  declare placeholder: string | undefined
  declare fp: string | undefined
  declare filter: Record<string, unknown> | null
  declare pageSize: number | undefined
  declare logo: string | undefined
  declare supportUrl: string | undefined
  declare askSelection: boolean
  declare search: boolean
  declare open: boolean
  declare mode: PanelMode
  /** The scheme in use (`light`/`dark`), reflected so the styles can follow it; set by the widget. */
  declare scheme: Scheme
  declare loading: boolean
  declare loadFailed: boolean
  declare panelReady: boolean
  declare selection: PageSelection | null
  /** Selected page text the reader chose to ask about, sent as `context` with the next question. */
  declare pendingContext: ContextItem | null
  /** The launcher's texts in the page's language; null while that language's chunk loads. */
  declare dictionary: LauncherLabels | null
  #panelLoad: Promise<void> | null = null
  #returnFocus: HTMLElement | null = null
  #selectionTimer: ReturnType<typeof setTimeout> | undefined
  #stopWatchingScheme: (() => void) | null = null

  constructor() {
    super()
    this.domain = ''
    this.apiKey = ''
    this.apiBase = ''
    this.variant = 'floating'
    this.side = 'right'
    this.align = 'bottom'
    this.starters = []
    this.labels = null
    this.filter = null
    this.askSelection = true
    this.search = true
    this.open = false
    this.mode = 'chat'
    this.scheme = 'light'
    this.loading = false
    this.loadFailed = false
    this.panelReady = false
    this.selection = null
    this.pendingContext = null
  }

  get lang(): Language {
    return pickLanguage(this.language, document.documentElement.lang)
  }

  get text(): LauncherLabels {
    const overrides = this.labels ?? {}
    const base = this.dictionary ?? enLauncher
    return Object.fromEntries(
      Object.keys(enLauncher).map((key) => [key, overrides[key] ?? base[key as keyof LauncherLabels]]),
    ) as unknown as LauncherLabels
  }

  #loadDictionary() {
    const lang = this.lang
    if (lang === 'en') {
      this.dictionary = enLauncher
      return
    }
    this.dictionary = null
    dictionaries[lang]().then(
      (labels) => lang === this.lang && (this.dictionary = labels),
      () => lang === this.lang && (this.dictionary = enLauncher),
    )
  }

  get panel(): DocentPanel | null {
    return this.renderRoot?.querySelector<DocentPanel>('docent-panel') ?? null
  }

  override connectedCallback() {
    super.connectedCallback()
    globalThis.addEventListener('keydown', this.#onKeydown)
    document.addEventListener('selectionchange', this.#onSelectionChange)
    document.addEventListener('click', this.#onPageClick)
    globalThis.addEventListener('scroll', this.#onSelectionChange, {
      passive: true,
    })
    this.#stopWatchingScheme = watchScheme(
      () => this.theme,
      (scheme) => (this.scheme = scheme),
    )
    if (this.variant === 'inline') void this.loadPanel()
    if (takeReopen()) void this.show()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    globalThis.removeEventListener('keydown', this.#onKeydown)
    document.removeEventListener('selectionchange', this.#onSelectionChange)
    document.removeEventListener('click', this.#onPageClick)
    globalThis.removeEventListener('scroll', this.#onSelectionChange)
    this.#stopWatchingScheme?.()
    clearTimeout(this.#selectionTimer)
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('language') || this.dictionary === undefined) {
      this.#loadDictionary()
    }
    if (changed.has('theme') && this.isConnected) {
      this.#stopWatchingScheme?.()
      this.#stopWatchingScheme = watchScheme(
        () => this.theme,
        (scheme) => (this.scheme = scheme),
      )
    }
    if (changed.has('askSelection') && !this.askSelection) {
      this.selection = null
    }
  }

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has('variant') && this.variant === 'inline') {
      void this.loadPanel()
    }
    // Placed through the CSSOM, not a style attribute: a site's `style-src` without 'unsafe-inline' refuses those.
    const { selection } = this
    const pill = selection ? this.renderRoot.querySelector<HTMLElement>('.selection-button') : null
    if (selection && pill) {
      pill.style.left = `${selection.left}px`
      pill.style.top = `${selection.top}px`
    }
  }

  /**
   * Defines `<docent-panel>` once; later calls share the same import. Anything that fails here (a chunk that does
   * not download, a browser that lacks something the panel needs) ends in the failure path: a message and Retry.
   */
  loadPanel(): Promise<void> {
    // A stalled download (a captive portal, a dying connection) ends in the same message after a while; the import
    // itself goes on, and a later open uses it when it arrives.
    let timer: ReturnType<typeof setTimeout> | undefined
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the panel took too long to load')), PANEL_LOAD_TIMEOUT_MS)
    })
    this.#panelLoad ??= Promise.race([import('./panel.ts'), stalled])
      .finally(() => clearTimeout(timer))
      .then(({ definePanel }) => {
        definePanel()
        this.loadFailed = false
        this.panelReady = true
      })
      .catch((error: unknown) => {
        // The next open tries again (offline, or a server restarted with a new build).
        this.#panelLoad = null
        this.loadFailed = true
        this.#emit('error', { message: String(error), during: 'load' })
        throw error
      })
    return this.#panelLoad
  }

  async show(options: { mode?: PanelMode } = {}) {
    if (options.mode === 'search' && this.search) this.mode = 'search'
    else if (options.mode === 'chat' || !this.search) this.mode = 'chat'
    if (this.variant !== 'inline' && !this.open) {
      const active = deepActiveElement()
      // Nothing focused (the body): focus goes back to the launcher on close.
      this.#returnFocus = active && active !== document.body && !this.contains(active) ? active : null
      this.open = true
    }
    this.loading = !this.panelReady
    try {
      await this.loadPanel()
    } catch {
      return
    } finally {
      this.loading = false
    }
    await this.updateComplete
    const panel = this.panel
    if (!panel) return
    await panel.updateComplete
    panel.focusInput()
    this.#emit('open', { mode: this.mode })
  }

  hide() {
    if (this.variant === 'inline' || !this.open) return
    this.open = false
    this.#emit('close', {})
    // Focus goes back where the reader was (the launcher when they came from it).
    void this.updateComplete.then(() => {
      const target = this.#returnFocus?.isConnected ? this.#returnFocus : this.renderRoot.querySelector<HTMLElement>('.launcher')
      target?.focus()
      this.#returnFocus = null
    })
  }

  async ask(text: string, context?: ContextItem[]) {
    await this.show({ mode: 'chat' })
    await this.panel?.ask(text, context)
  }

  async reset() {
    await this.loadPanel()
    await this.updateComplete
    await this.panel?.reset()
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

  #onKeydown = (event: KeyboardEvent) => {
    const target = event.composedPath()[0]
    const mine = target instanceof Node && (this.contains(target) || this.renderRoot.contains(target) || target === this)
    const chord = (event.metaKey || event.ctrlKey) && !event.altKey && !event.shiftKey
    const key = event.key.toLowerCase()
    if (chord && (key === 'i' || (key === 'k' && this.search)) && !event.defaultPrevented && (mine || !isEditable(target))) {
      event.preventDefault()
      const mode: PanelMode = key === 'k' ? 'search' : 'chat'
      if (this.open && this.variant !== 'inline' && this.mode === mode) {
        this.hide()
      } else void this.show({ mode })
    } else if (event.key === 'Escape' && this.open && (mine || !event.defaultPrevented)) {
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

  /** Any element with `data-docent-open` on the page (an "Ask AI" button) opens the chat; `="search"` the search. */
  #onPageClick = (event: MouseEvent) => {
    const trigger = (event.target as Element | null)?.closest?.('[data-docent-open]')
    if (!trigger) return
    event.preventDefault()
    void this.show({
      mode: trigger.getAttribute('data-docent-open') === 'search' ? 'search' : 'chat',
    })
  }

  #onSelectionChange = () => {
    if (!this.askSelection) return
    clearTimeout(this.#selectionTimer)
    this.#selectionTimer = setTimeout(() => {
      this.selection = readSelection(this)
    }, 150)
  }

  #askAboutSelection = async () => {
    const selection = this.selection
    if (!selection) return
    this.pendingContext = {
      type: 'textSelection',
      value: selection.text,
      path: location.pathname.slice(0, 200),
    }
    this.selection = null
    await this.show({ mode: 'chat' })
  }

  #icon() {
    return this.logo && /^(https?:|data:image\/|\/)/i.test(this.logo) ? html`<img src=${this.logo} alt="" />` : sparkle
  }

  protected override render() {
    const text = this.text
    const mac = isMac()
    const selectionButton =
      this.selection && this.askSelection
        ? html`
        <button
          type="button"
          class="selection-button"
          part="selection-button"
          @mousedown=${(e: Event) => e.preventDefault()}
          @click=${this.#askAboutSelection}
        >
          ${sparkle} ${text.askSelection}
        </button>
      `
        : nothing
    const inline = this.variant === 'inline'
    const panel =
      this.panelReady && (inline || this.open || this.panel)
        ? html`
        <docent-panel
          ?hidden=${!inline && !this.open}
          exportparts="panel,header,title,messages,message,user-message,assistant-message,sources,source,actions,composer,input,send,stop,starter,error,selection,code-block,backdrop,search,search-input,result,history,feedback-form,support"
          .domain=${this.domain}
          .apiKey=${this.apiKey}
          .apiBase=${this.apiBase}
          .variant=${this.variant}
          .side=${this.side}
          .language=${this.lang}
          .pendingContext=${this.pendingContext}
          .labels=${this.labels}
          .placeholder=${this.placeholder}
          .starters=${this.starters}
          .fp=${this.fp}
          .filter=${this.filter}
          .pageSize=${this.pageSize}
          .logo=${this.logo}
          .supportUrl=${this.supportUrl}
          .searchEnabled=${this.search}
          .mode=${this.mode}
          .open=${inline || this.open}
          @docent-panel-close=${() => this.hide()}
          @docent-panel-mode=${(event: CustomEvent<PanelMode>) => (this.mode = event.detail)}
          @docent-panel-context=${() => (this.pendingContext = null)}
        ></docent-panel>
      `
        : nothing
    if (inline) return html`${panel}${selectionButton}`
    return html`
      ${
        this.open || !this.dictionary
          ? nothing
          : html`
        <button
          type="button"
          class="launcher"
          part="launcher"
          aria-haspopup="dialog"
          aria-keyshortcuts=${mac ? 'Meta+I' : 'Control+I'}
          @click=${() => this.show({ mode: 'chat' })}
          @pointerenter=${this.#prefetch}
          @focus=${this.#prefetch}
        >
          ${this.#icon()}<span>${text.launcher}</span><kbd aria-hidden="true">${mac ? '⌘I' : 'Ctrl+I'}</kbd>
        </button>
      `
      } ${panel} ${this.open && this.loading ? html`<div class="loading" role="status">${text.loading}</div>` : nothing}
      ${
        this.open && this.loadFailed && !this.panelReady
          ? html`<div class="loading" role="alert">
          ${text.errorNetwork}
          <button type="button" class="link" @click=${() => this.show()}>${text.retry}</button>
          <button type="button" class="link" @click=${() => this.hide()}>${text.close}</button>
        </div>`
          : nothing
      } ${selectionButton}
    `
  }
}

/** The focused element, looking inside shadow roots (docs sites built from web components). */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) {
    active = active.shadowRoot.activeElement
  }
  return active instanceof HTMLElement ? active : null
}
