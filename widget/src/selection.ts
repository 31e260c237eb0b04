/** Text the reader selected on the page, and where to put the "ask about selection" button. */
export interface PageSelection {
  text: string
  left: number
  top: number
}

const MAX_SELECTION = 10_000

/** The page's current selection outside the widget, or null when there is none worth asking about. */
export function readSelection(widget: HTMLElement): PageSelection | null {
  const selection = document.getSelection()
  if (!selection || selection.isCollapsed || selection.rangeCount === 0) return null
  const text = selection.toString().trim()
  if (text.length < 3) return null
  const range = selection.getRangeAt(0)
  if (widget.contains(range.commonAncestorContainer)) return null
  const rect = range.getBoundingClientRect()
  const width = 190
  return {
    text: text.slice(0, MAX_SELECTION),
    left: Math.max(8, Math.min(rect.left + rect.width / 2 - width / 2, window.innerWidth - width - 8)),
    top: rect.bottom + 44 > window.innerHeight ? Math.max(8, rect.top - 44) : rect.bottom + 8,
  }
}
