const numberFormat = new Intl.NumberFormat(undefined)
const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 })
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const relativeFormat = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

export const count = (n: number) => numberFormat.format(n)

/** Explicit direction overrides, embeddings and isolates (U+202A–U+202E, U+2066–U+2069). */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g

/**
 * A reader's text (a question, a comment) as the team reads it: without the controls that reorder what follows them, so
 * "\u202egnp.exe" shows as written, not reversed ("exe.png"). Admin text (key names) refuses them; readers' text is
 * shown, so they are left out here. Right-to-left script still reads right to left: it needs no control.
 */
export const readerText = (text: string) => text.replace(DIRECTION_CONTROLS, '')
export const percent = (share: number | null) => (share === null || Number.isNaN(share) ? '–' : percentFormat.format(share))
export const date = (iso: string | null) => (iso ? dateFormat.format(new Date(iso)) : '–')
export const dateTime = (iso: string | null) => (iso ? dateTimeFormat.format(new Date(iso)) : '–')
/** A moment as the clock in `timeZone` shows it (a schedule's zone, which may not be the reader's). */
export const dateTimeIn = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(new Date(iso))

/** "3 minutes ago", "yesterday", with the exact time in a tooltip by the caller. */
export function ago(iso: string | null, now = Date.now()): string {
  if (!iso) return '–'
  const seconds = (new Date(iso).getTime() - now) / 1000
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['week', 604_800],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ]
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return relativeFormat.format(Math.round(seconds / size), unit)
  }
  return 'just now'
}

/** The path of a page URL (`https://docs.acme.com/guides/x#y` → `/guides/x`), for compact display. */
export function pathOf(url: string | null): string {
  if (!url) return '–'
  try {
    return new URL(url, 'http://x').pathname
  } catch {
    return url
  }
}

/**
 * A markdown link as answers write them (`[Flags](https://docs.acme.com/flags)`). Linear: the label admits no bracket
 * and the target no parenthesis or space, so each attempt stops at the next opening (as server/models/markdown-links.ts).
 */
const MARKDOWN_LINK = /\[([^[\]\n]*)\]\(([^()\s]*)\)/g

/**
 * An answer's text in pieces: plain text, and its markdown links as label and address, so a transcript shows "Flags"
 * as a link rather than `[Flags](https://…)`. Only http(s) addresses become links; any other keeps its label as text.
 */
export function linkPieces(text: string): Array<string | { label: string; href: string }> {
  const pieces: Array<string | { label: string; href: string }> = []
  let from = 0
  for (const match of text.matchAll(MARKDOWN_LINK)) {
    const [whole, label = '', href = ''] = match
    if (match.index > from) pieces.push(text.slice(from, match.index))
    pieces.push(/^https?:\/\//i.test(href) ? { label: label || href, href } : label)
    from = match.index + whole.length
  }
  if (from < text.length) pieces.push(text.slice(from))
  return pieces
}
