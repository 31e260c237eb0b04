import type { ContextItem } from '../../shared/assistant.ts'
import { DocentChat } from './docent-chat.ts'
import { TopLayerController } from './launcher-top-layer.ts'

export { DocentChat } from './docent-chat.ts'
export { type Language, LANGUAGES } from './launcher-labels.ts'

if (!customElements.get('docent-chat')) {
  DocentChat.addInitializer((element) => new TopLayerController(element as DocentChat))
  customElements.define('docent-chat', DocentChat)
}

/** Options of `Docent.init`/`update` and of a script-tag mount (its `data-*` attributes, camel-cased). */
export interface MountOptions {
  domain?: string
  apiKey?: string
  apiBase?: string
  variant?: string
  theme?: string
  side?: string
  align?: string
  lang?: string
  starters?: string | string[]
  labels?: string | Record<string, string>
  placeholder?: string
  fp?: string
  filter?: string | Record<string, unknown>
  pageSize?: string | number
  logo?: string
  supportUrl?: string
  askSelection?: string | boolean
  search?: string | boolean
  /** CSS selector of the element an inline widget goes into. */
  target?: string
}

/** What the page can listen to with `Docent.on(name, handler)`; each is also a `docent-<kebab-name>` DOM event. */
export type DocentEventName = 'open' | 'close' | 'message' | 'feedback' | 'error' | 'sourceClick' | 'search'

export interface DocentApi {
  init(options: MountOptions): DocentApi
  update(options: MountOptions): void
  destroy(): void
  open(options?: { mode?: 'chat' | 'search' }): Promise<void>
  close(): void
  ask(text: string, context?: ContextItem[]): Promise<void>
  reset(): Promise<void>
  /** Calls `handler(detail)` for each such event; returns the function that stops it. */
  on(name: DocentEventName, handler: (detail: Record<string, unknown>) => void): () => void
  off(name: DocentEventName, handler: (detail: Record<string, unknown>) => void): void
  readonly element: DocentChat | null
}

const ATTRIBUTES: Array<[keyof MountOptions, string]> = [
  ['domain', 'domain'],
  ['apiKey', 'api-key'],
  ['apiBase', 'api-base'],
  ['variant', 'variant'],
  ['theme', 'theme'],
  ['side', 'side'],
  ['align', 'align'],
  ['lang', 'lang'],
  ['starters', 'starters'],
  ['labels', 'labels'],
  ['placeholder', 'placeholder'],
  ['fp', 'fp'],
  ['filter', 'filter'],
  ['pageSize', 'page-size'],
  ['logo', 'logo'],
  ['supportUrl', 'support-url'],
  ['askSelection', 'ask-selection'],
  ['search', 'search'],
]

const eventName = (name: DocentEventName) => `docent-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

function apply(element: DocentChat, options: MountOptions) {
  for (const [key, attribute] of ATTRIBUTES) {
    const value = options[key]
    if (value === undefined) continue
    if (value === null || value === '') element.removeAttribute(attribute)
    else {
      element.setAttribute(attribute, typeof value === 'object' ? JSON.stringify(value) : String(value))
    }
  }
}

/**
 * Where the launcher goes in the page: first in the tab order (after the page's skip link, if it starts with one),
 * so a keyboard reader reaches it without tabbing through the whole page.
 */
function place(element: DocentChat, target: Element | null) {
  if (target) return target.append(element)
  const first = document.body.querySelector('a[href], button, input, select, textarea, [tabindex]')
  if (first instanceof HTMLAnchorElement && first.getAttribute('href')?.startsWith('#')) first.after(element)
  else document.body.prepend(element)
}

const handlers = new Map<(detail: Record<string, unknown>) => void, Map<string, EventListener>>()

export const api: DocentApi = {
  init(options) {
    let element = document.querySelector<DocentChat>('docent-chat')
    if (element) apply(element, options)
    else {
      element = document.createElement('docent-chat') as DocentChat
      apply(element, options)
      place(element, options.target ? document.querySelector(options.target) : null)
    }
    return api
  },
  update(options) {
    const element = api.element
    if (element) apply(element, options)
  },
  destroy() {
    api.element?.remove()
  },
  open: (options) => api.element?.show(options) ?? Promise.resolve(),
  close: () => api.element?.hide(),
  ask: (text, context) => api.element?.ask(text, context) ?? Promise.resolve(),
  reset: () => api.element?.reset() ?? Promise.resolve(),
  on(name, handler) {
    const listener = (event: Event) => handler((event as CustomEvent).detail ?? {})
    const byName = handlers.get(handler) ?? new Map<string, EventListener>()
    byName.set(name, listener)
    handlers.set(handler, byName)
    // On the document: the events bubble out of the widget, and a handler outlives destroy() and init().
    document.addEventListener(eventName(name), listener)
    return () => api.off(name, handler)
  },
  off(name, handler) {
    const listener = handlers.get(handler)?.get(name)
    if (!listener) return
    document.removeEventListener(eventName(name), listener)
    handlers.get(handler)!.delete(name)
  },
  get element() {
    return document.querySelector<DocentChat>('docent-chat')
  },
}

/** Adds a `<docent-chat>` to the page (or updates the one there) and exposes `window.Docent`. */
export function mount(options: MountOptions = {}): DocentApi {
  // The element first: calls the page queued before the code arrived (`Docent.ask(...)` on load) need it.
  api.init(options)
  expose()
  return api
}

/** `window.Docent`, replaying the calls the page made before the widget's code arrived (see loader.ts). */
export function expose() {
  const global = globalThis as unknown as {
    Docent?: {
      q?: Array<[keyof DocentApi, unknown[], (value: unknown) => void]>
    }
  }
  const queued = global.Docent?.q ?? []
  ;(globalThis as unknown as { Docent: DocentApi }).Docent = api
  for (const [method, args, resolve] of queued) {
    const fn = api[method] as (...args: unknown[]) => unknown
    resolve(typeof fn === 'function' ? fn.apply(api, args) : undefined)
  }
}
