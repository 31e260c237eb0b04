import { DocentError } from '../../shared/errors.ts'
import { trimEnd } from '../../shared/trim.ts'

/**
 * The list a cursor pages: which list gave it out, of which project (and automation). A cursor is read back only by
 * the list of the same scope, so a page of one project's conversations is no place in its feedback, its threads or
 * another project's conversations (README: "any other cursor is a 400"). Filters (a date range, a status) are not part
 * of it: the default range slides with the clock between two pages, and the last item's sort key is a place in the
 * list whatever the filter.
 */
export interface CursorScope {
  list: 'jobs' | 'threads' | 'automation-runs' | 'turns' | 'feedback' | 'search-terms' | 'gaps'
  projectId: string
  /** The automation whose runs are paged. */
  automationId?: string
}

/**
 * A cursor a client sent that this list did not return (mangled, cut, forged, or another list's). Reading it as "no
 * cursor" would hand back the first page again, and a client following `nextCursor` would loop forever.
 */
const invalidCursor = () =>
  new DocentError('invalid_request', 'cursor: invalid; pass nextCursor of the previous page of this list unchanged')

/**
 * Bytes of SHA-256 over the scope and the sort key that a cursor starts with. Not a secret signature (the servers of
 * one store share no key, and a cursor only places a page in a list its holder may read whole): it makes a cursor of
 * another list or project, or an edited one, fail the check instead of paging from wherever it points.
 */
const TAG_BYTES = 8
/** The format of the tagged text; another version's cursors are refused. */
const VERSION = 'docent-cursor/1'

/** The longest cursor any list returns (a search term of 500 characters of 3 bytes is its longest key), with room. */
const MAX_CURSOR_CHARS = 4096

async function tagOf(scope: CursorScope, body: Uint8Array): Promise<Uint8Array> {
  const head = new TextEncoder().encode(`${JSON.stringify([VERSION, scope.list, scope.projectId, scope.automationId ?? null])}\n`)
  const text = new Uint8Array(head.length + body.length)
  text.set(head)
  text.set(body, head.length)
  return new Uint8Array(await crypto.subtle.digest('SHA-256', text)).slice(0, TAG_BYTES)
}

/** The opaque cursor of a sort key: base64url (no padding) of the tag and the key's UTF-8 text. */
async function seal(scope: CursorScope, key: string): Promise<string> {
  const body = new TextEncoder().encode(key)
  const bytes = new Uint8Array(TAG_BYTES + body.length)
  bytes.set(await tagOf(scope, body))
  bytes.set(body, TAG_BYTES)
  return trimEnd(
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_'),
    '=',
  )
}

/** The sort key text of a cursor this scope's list gave out; an invalid request for any other. */
async function unseal(scope: CursorScope, cursor: string): Promise<string> {
  if (cursor.length > MAX_CURSOR_CHARS) throw invalidCursor()
  let bytes: Uint8Array
  try {
    bytes = Uint8Array.from(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
  } catch {
    throw invalidCursor()
  }
  const body = bytes.subarray(TAG_BYTES)
  const tag = await tagOf(scope, body)
  if (body.length === 0 || tag.some((byte, i) => byte !== bytes[i])) throw invalidCursor()
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    throw invalidCursor()
  }
}

/** Cursors of lists newest first: the last item's time and id. */
export function encodeCursor(scope: CursorScope, at: Date, id: string): Promise<string> {
  return seal(scope, `${at.toISOString()}|${id}`)
}

/**
 * A date as `encodeCursor` writes it, in the years 1 to 9999: PostgreSQL has no year 0 and does not read the six-digit
 * years (`+010000-…`) of `toISOString`. A cursor only ever holds a stored item's time, but its check is no secret.
 */
const isCursorDate = (iso: string, at: Date) => /^\d{4}-/.test(iso) && !iso.startsWith('0000') && at.toISOString() === iso

/** The sort key in a cursor; null when there is none. A cursor this list did not give out is an invalid request. */
export async function decodeCursor(scope: CursorScope, cursor: string | undefined): Promise<{ at: Date; id: string } | null> {
  if (!cursor) return null
  const text = await unseal(scope, cursor)
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
export function encodeRankCursor(scope: CursorScope, count: number, key: string): Promise<string> {
  return seal(scope, `${count}|${key}`)
}

/** Counts are 32-bit integers in the stores (`count(*)::int`): a larger one is no count a list returned. */
const MAX_RANK_COUNT = 2_147_483_647

/** The rank key in a cursor; null when there is none. A cursor this list did not give out is an invalid request. */
export async function decodeRankCursor(scope: CursorScope, cursor: string | undefined): Promise<{ count: number; key: string } | null> {
  if (!cursor) return null
  const text = await unseal(scope, cursor)
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
