import type { ContextItem } from './chat.ts'
import { DocentChat } from './docent-chat.ts'

export { DocentChat } from './docent-chat.ts'
export { defaultLabels, type Labels } from './labels.ts'

if (!customElements.get('docent-chat')) customElements.define('docent-chat', DocentChat)

/** Options of a script-tag mount: the `data-*` attributes of the script. */
export interface MountOptions {
  domain?: string
  apiKey?: string
  apiBase?: string
  variant?: string
  theme?: string
  starters?: string
  labels?: string
  placeholder?: string
  fp?: string
  filter?: string
  pageSize?: string
  /** CSS selector of the element an inline widget goes into. */
  target?: string
}

export interface DocentApi {
  open(): Promise<void>
  close(): void
  ask(text: string, context?: ContextItem[]): Promise<void>
  reset(): Promise<void>
  element: DocentChat
}

const ATTRIBUTES: Array<[keyof MountOptions, string]> = [
  ['domain', 'domain'],
  ['apiKey', 'api-key'],
  ['apiBase', 'api-base'],
  ['variant', 'variant'],
  ['theme', 'theme'],
  ['starters', 'starters'],
  ['labels', 'labels'],
  ['placeholder', 'placeholder'],
  ['fp', 'fp'],
  ['filter', 'filter'],
  ['pageSize', 'page-size'],
]

/** Adds a `<docent-chat>` to the page (or reuses the one there) and exposes `window.Docent`. */
export function mount(options: MountOptions = {}): DocentApi {
  let element = document.querySelector<DocentChat>('docent-chat')
  if (!element) {
    element = document.createElement('docent-chat') as DocentChat
    for (const [key, attribute] of ATTRIBUTES) {
      const value = options[key]
      if (value !== undefined && value !== '') element.setAttribute(attribute, value)
    }
    const target = options.target ? document.querySelector(options.target) : null
    ;(target ?? document.body).append(element)
  }
  const chat = element
  const api: DocentApi = {
    open: () => chat.show(),
    close: () => chat.hide(),
    ask: (text, context) => chat.ask(text, context),
    reset: () => chat.reset(),
    element: chat,
  }
  ;(window as unknown as { Docent: DocentApi }).Docent = api
  return api
}
