export type Scheme = 'light' | 'dark'

/**
 * The host page's own light/dark switch, as docs frameworks write it: `data-theme` (Docusaurus, Starlight, Docent's
 * demo site), a `dark`/`light` class on `<html>` (Mintlify, VitePress, Nextra, Tailwind sites), an inline
 * `color-scheme`, or Material for MkDocs' `data-md-color-scheme` on `<body>`. Null when the page has no switch.
 */
export function hostScheme(doc: Document = document): Scheme | null {
  const root = doc.documentElement
  for (const name of ['data-theme', 'data-mode', 'data-color-scheme', 'data-color-mode']) {
    const value = root.getAttribute(name)?.toLowerCase()
    if (value === 'dark' || value === 'light') return value
  }
  if (root.classList.contains('dark')) return 'dark'
  if (root.classList.contains('light')) return 'light'
  const inline = root.style.colorScheme
  if (inline === 'dark' || inline === 'light') return inline
  const material = doc.body?.getAttribute('data-md-color-scheme')
  if (material) return material === 'slate' ? 'dark' : 'light'
  return null
}

const WATCHED = ['class', 'style', 'data-theme', 'data-mode', 'data-color-scheme', 'data-color-mode', 'data-md-color-scheme']

/**
 * Calls `onChange` with the scheme to use whenever it may have changed: the element's `theme` wins, then the page's
 * switch, then the reader's system setting. Returns the function that stops watching.
 */
export function watchScheme(theme: () => string | undefined, onChange: (scheme: Scheme) => void): () => void {
  const media = globalThis.matchMedia?.('(prefers-color-scheme: dark)')
  const update = () => {
    const chosen = theme()
    onChange(chosen === 'light' || chosen === 'dark' ? chosen : (hostScheme() ?? (media?.matches ? 'dark' : 'light')))
  }
  const observer = new MutationObserver(update)
  observer.observe(document.documentElement, {
    attributes: true,
    attributeFilter: WATCHED,
  })
  if (document.body) {
    observer.observe(document.body, {
      attributes: true,
      attributeFilter: WATCHED,
    })
  }
  media?.addEventListener('change', update)
  update()
  return () => {
    observer.disconnect()
    media?.removeEventListener('change', update)
  }
}
