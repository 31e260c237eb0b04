import { trimEnd } from '../../shared/trim.ts'

/** Control characters (U+0000 included) never reach an index or a CSV cell. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g

/** One line of reader-sent text: control characters gone, spaces collapsed, at most `max` characters. */
export function cleanLine(text: string, max = 500): string {
  return text.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim().slice(0, max)
}

/** A search as analytics groups it: one line, lower case, so "Webhooks " and "webhooks" count together. */
export function normalizeQuery(text: string): string {
  return cleanLine(text).toLowerCase()
}

/**
 * The page a widget event names, as analytics keeps it (the top clicked page of a search term): a path on the docs site,
 * as the widget sends one, a search result's page path (`sdks/javascript`) or the URL path of an answer's source link
 * (`/fr/gu%C3%ADa`); what follows `?` or `#` is a place on that page and is left off. Null for anything else, which
 * anyone with the public assistant key could otherwise put in the console and the exports: another site's URL
 * (`https://…`, `//host`, `\\host`), another scheme (`javascript:`), a spreadsheet formula (`=HYPERLINK(…)`), markup, or
 * characters no URL holds.
 */
export function docsPath(text: string): string | null {
  const line = cleanLine(text)
  const end = line.search(/[?#]/)
  const page = (end < 0 ? line : line.slice(0, end)).trim()
  if (!page || page.startsWith('//') || /^[^/]*:/.test(page) || /^[=+\-@]/.test(page) || /["<>\\^`{|}]/.test(page)) return null
  return page
}

/**
 * The full URL of the page a reader asked from: `currentPath` on the site's base; null when no page was given. A full
 * URL counts as itself only on the site's own origin: any caller may send one, and another host's would show in the
 * console as the docs path it ends with ("/phish") while leading off-site. Elsewhere only its path is kept.
 */
export function pageUrlOf(base: string, currentPath: string | undefined): string | null {
  if (!currentPath) return null
  const path = cleanLine(currentPath, 500)
  if (!path) return null
  if (/^https?:\/\//i.test(path)) {
    const url = URL.parse(path)
    if (!url) return null
    if (url.origin === URL.parse(base)?.origin) return url.href
    return onBase(base, url.pathname + url.search + url.hash)
  }
  return onBase(base, path)
}

const onBase = (base: string, path: string) => `${trimEnd(base, '/')}${path.startsWith('/') ? '' : '/'}${path}`
