import { SESSION_COOKIE } from '../../shared/console.ts'
import { randomBase64Url } from '../ids.ts'
import { sha256Hex } from '../keys/keys.ts'
import type { KeyRecord, SessionRecord, Store } from '../store/types.ts'
import { isSessionIdShape } from '../shapes.ts'

/** A console session lasts 12 hours from sign-in; then the docs lead signs in again. */
export const SESSION_TTL_MS = 12 * 3_600_000

/** Starts a session for a verified admin key; the returned id goes into the cookie and nowhere else. */
export async function startSession(store: Store, key: KeyRecord, now: Date): Promise<{ id: string; session: SessionRecord }> {
  // 32 random bytes from the CSPRNG: the session id the cookie holds (the store keeps only its hash).
  const id = randomBase64Url(32)
  const session: SessionRecord = {
    hash: await sha256Hex(id),
    keyId: key.id,
    keyHash: key.hash,
    organization: key.organization,
    createdAt: now,
    // A session ends with its key: one made from a key that expires sooner says so (it reported 12 hours).
    expiresAt: new Date(Math.min(now.getTime() + SESSION_TTL_MS, key.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY)),
  }
  // Sign-ins are rare: purging then keeps the table to live sessions without a background task.
  await store.deleteExpiredSessions(now)
  await store.insertSession(session)
  return { id, session }
}

export type SessionCheck = { ok: true; session: SessionRecord; key: KeyRecord } | { ok: false; reason: string }

/** The session a cookie names, with its key: refused when unknown, signed out, expired, or its key revoked or expired. */
export async function resolveSession(store: Store, id: string, now: Date): Promise<SessionCheck> {
  const expired = { ok: false, reason: 'the console session has ended (signed out or expired); sign in again' } as const
  if (!isSessionIdShape(id)) return expired
  const session = await store.findSession(await sha256Hex(id))
  if (!session || session.expiresAt.getTime() <= now.getTime()) return expired
  const key = await store.findKeyByHash(session.keyHash)
  if (!key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= now.getTime())) return expired
  return { ok: true, session, key }
}

export async function endSession(store: Store, id: string): Promise<boolean> {
  if (!isSessionIdShape(id)) return false
  return store.deleteSession(await sha256Hex(id))
}

/** The session id in a Cookie header, if any. */
export function sessionIdOf(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null
  for (const part of cookieHeader.split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === SESSION_COOKIE) return value.join('=')
  }
  return null
}

/**
 * The Set-Cookie value: HttpOnly (scripts never see it), SameSite=Strict (other sites' requests never carry it),
 * Secure over HTTPS, Path=/ (the admin API is under /v1 and /v2 as well as /console).
 */
export function sessionCookie(id: string, { secure, maxAgeSeconds }: { secure: boolean; maxAgeSeconds: number }): string {
  return [
    `${SESSION_COOKIE}=${id}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ')
}
