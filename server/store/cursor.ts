import { trimEnd } from '../../shared/trim.ts'

/** Base64url without padding, of a binary string (one byte per character). */
function base64Url(binary: string): string {
  return trimEnd(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_'), '=')
}

/** Opaque page cursors: the sort key of the last item, base64url-encoded. */
export function encodeCursor(at: Date, id: string): string {
  return base64Url(`${at.toISOString()}|${id}`)
}

export function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null
  try {
    const text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const [iso, id] = text.split('|')
    const at = new Date(iso ?? '')
    if (!id || Number.isNaN(at.getTime())) return null
    return { at, id }
  } catch {
    return null
  }
}

/** Sort key order shared by every adapter: newest first, id breaking ties. */
export function isBefore(a: { at: Date; id: string }, b: { at: Date; id: string }): boolean {
  const diff = a.at.getTime() - b.at.getTime()
  return diff < 0 || (diff === 0 && a.id < b.id)
}

/** Cursors of lists ranked by a count (most first), the key breaking ties: the last item's count and key. */
export function encodeRankCursor(count: number, key: string): string {
  return base64Url(String.fromCharCode(...new TextEncoder().encode(`${count}|${key}`)))
}

export function decodeRankCursor(cursor: string | undefined): { count: number; key: string } | null {
  if (!cursor) return null
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
    const bar = text.indexOf('|')
    const count = Number(text.slice(0, bar))
    if (bar < 1 || !Number.isInteger(count) || count < 0) return null
    return { count, key: text.slice(bar + 1) }
  } catch {
    return null
  }
}

/** Rank order shared by every adapter: the higher count first, then the smaller key. */
export function ranksAfter(a: { count: number; key: string }, cursor: { count: number; key: string }): boolean {
  return a.count < cursor.count || (a.count === cursor.count && a.key > cursor.key)
}
