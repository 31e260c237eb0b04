import { DocentError } from '../../shared/errors.ts'
import { trimEnd } from '../../shared/trim.ts'

/** Base64url without padding, of a binary string (one byte per character). */
function base64Url(binary: string): string {
  return trimEnd(btoa(binary).replace(/\+/g, '-').replace(/\//g, '_'), '=')
}

/** Opaque page cursors: the sort key of the last item, base64url-encoded. */
export function encodeCursor(at: Date, id: string): string {
  return base64Url(`${at.toISOString()}|${id}`)
}

/**
 * A cursor a client sent that no list returned (mangled, cut, forged). Reading it as "no cursor" would hand back the
 * first page again, and a client following `nextCursor` would loop forever.
 */
const invalidCursor = () => new DocentError('invalid_request', 'cursor: invalid; pass nextCursor of the previous page unchanged')

/**
 * A date as `encodeCursor` writes it, in the years 1 to 9999: PostgreSQL has no year 0 and does not read the six-digit
 * years (`+010000-…`) of `toISOString`.
 */
const isCursorDate = (iso: string, at: Date) => /^\d{4}-/.test(iso) && !iso.startsWith('0000') && at.toISOString() === iso

/** The sort key in a cursor; null when there is none. A cursor that is not one of ours is an invalid request. */
/** The binary string (one byte per character) a base64url cursor holds; an invalid request when it holds none. */
function bytesOf(cursor: string): string {
  try {
    return atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
  } catch {
    throw invalidCursor()
  }
}

export function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null
  const text = bytesOf(cursor)
  const bar = text.indexOf('|')
  const iso = text.slice(0, bar)
  const at = new Date(iso)
  if (bar < 0 || bar === text.length - 1 || Number.isNaN(at.getTime()) || !isCursorDate(iso, at)) throw invalidCursor()
  return { at, id: text.slice(bar + 1) }
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

/** Counts are 32-bit integers in the stores (`count(*)::int`): a larger one is no count a list returned. */
const MAX_RANK_COUNT = 2_147_483_647

/** The rank key in a cursor; null when there is none. A cursor that is not one of ours is an invalid request. */
export function decodeRankCursor(cursor: string | undefined): { count: number; key: string } | null {
  if (!cursor) return null
  const binary = bytesOf(cursor)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))
  } catch {
    throw invalidCursor()
  }
  const bar = text.indexOf('|')
  const digits = text.slice(0, bar)
  // Digits only, as `encodeRankCursor` writes them: `1e3`, `-5` or ` 7` are numbers to `Number` but no cursor of ours.
  if (bar < 1 || !/^\d{1,10}$/.test(digits) || Number(digits) > MAX_RANK_COUNT) throw invalidCursor()
  return { count: Number(digits), key: text.slice(bar + 1) }
}

/** Rank order shared by every adapter: the higher count first, then the smaller key. */
export function ranksAfter(a: { count: number; key: string }, cursor: { count: number; key: string }): boolean {
  return a.count < cursor.count || (a.count === cursor.count && a.key > cursor.key)
}
