import { z } from 'zod'
import { CreateKeyBody } from '../../shared/console.ts'
import { DocentError, formatIssues } from '../../shared/errors.ts'
import { randomId } from '../ids.ts'
import type { KeyKind, KeyRecord, KeyScope, Store } from '../store/types.ts'
import { controlCharacterProblem } from './control-characters.ts'

export const ADMIN_PREFIX = 'svc_'
export const ASSISTANT_PREFIX = 'svc_dsc_'

/** 32 base62 characters: about 190 bits. The alphabet has no `_`, so an admin key never looks like an assistant key. */
const randomToken = (length = 32): string => randomId(length)

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** Compares two equal-length strings in time independent of where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** A key: the admin prefix (which an assistant key's begins with), then 8 to 200 letters, digits and `_`. */
const KEY_SHAPE = /^svc_[A-Za-z0-9_]+$/
const KEY_BODY_LENGTH = { min: 8, max: 200 }

export function kindOfKey(key: string): KeyKind | null {
  // The length is counted apart: recheck cannot prove the bounded repeat `{8,200}` linear and, fuzzing instead,
  // reported it on some runs (V8 runs it in linear time).
  const body = key.length - ADMIN_PREFIX.length
  if (body < KEY_BODY_LENGTH.min || body > KEY_BODY_LENGTH.max || !KEY_SHAPE.test(key)) return null
  return key.startsWith(ASSISTANT_PREFIX) ? 'assistant' : 'admin'
}

export interface CreateKeyOptions {
  kind: KeyKind
  organization: string
  projectId?: string | null
  name?: string | null
  /** Admin keys only: `read` refuses every change (403). Default `write`. */
  scope?: KeyScope
  expiresAt?: Date | null
  /** Use this exact secret (seeding from env); otherwise a random one is made. */
  secret?: string
  now?: Date
}

/** Creates a key; the returned `secret` is the only time the key is visible. */
export async function createKey(store: Store, options: CreateKeyOptions): Promise<{ secret: string; record: KeyRecord }> {
  const secret = options.secret ?? (options.kind === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX) + randomToken()
  if (kindOfKey(secret) !== options.kind) {
    throw new Error(
      `a ${options.kind} key must start with ${
        options.kind === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX
      } (and an admin key must not start with ${ASSISTANT_PREFIX})`,
    )
  }
  if (options.kind === 'assistant' && !options.projectId) throw new Error('an assistant key needs a project')
  if (options.kind === 'assistant' && options.scope === 'read') throw new Error('a read scope is for admin keys')
  let name: string | null = null
  if (options.name != null) {
    const parsed = parseKeyName(options.name)
    if (!parsed.ok) throw new DocentError('invalid_request', `name: ${parsed.problem}`)
    name = parsed.name
  }
  const organizationProblem = controlCharacterProblem(options.organization)
  if (organizationProblem) throw new DocentError('invalid_request', `organization: ${organizationProblem}`)
  const record: KeyRecord = {
    id: `key_${randomToken(12)}`,
    hash: await sha256Hex(secret),
    kind: options.kind,
    organization: options.organization,
    projectId: options.projectId ?? null,
    name,
    scope: options.scope ?? 'write',
    last4: secret.slice(-4),
    createdAt: options.now ?? new Date(),
    expiresAt: options.expiresAt ?? null,
    revokedAt: null,
  }
  await store.insertKey(record)
  return { secret, record }
}

export type KeyCheck = { ok: true; key: KeyRecord } | { ok: false; reason: string }

// Hashes of recently presented keys, per store (one Docent's), so they go when it does. WebCrypto's digest runs as a
// thread-pool job: under load (200 streams) it was the biggest cost of auth, and a hash never changes. The key record
// itself is still read on every request, so a revoked key is refused at once.
const recentHashesOf = new WeakMap<Store, Map<string, string>>()
const RECENT_HASHES_MAX = 1000

async function presentedKeyHash(store: Store, secret: string): Promise<string> {
  let recentHashes = recentHashesOf.get(store)
  if (!recentHashes) recentHashesOf.set(store, (recentHashes = new Map()))
  const known = recentHashes.get(secret)
  if (known) return known
  const hash = await sha256Hex(secret)
  if (recentHashes.size >= RECENT_HASHES_MAX) recentHashes.delete(recentHashes.keys().next().value!)
  recentHashes.set(secret, hash)
  return hash
}

/** Finds the key for a presented secret: unknown, revoked and expired keys are all refused. */
export async function verifyKey(store: Store, secret: string, now: Date): Promise<KeyCheck> {
  if (!kindOfKey(secret)) return { ok: false, reason: 'malformed API key' }
  const hash = await presentedKeyHash(store, secret)
  const key = await store.findKeyByHash(hash)
  // The lookup is by hash (an index); the compare below keeps the final check constant-time as the contract asks.
  if (!key || !constantTimeEqual(key.hash, hash)) return { ok: false, reason: 'unknown API key' }
  if (key.revokedAt) return { ok: false, reason: 'API key revoked' }
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'API key expired' }
  return { ok: true, key }
}

/**
 * A key name as the API takes it (`CreateKeyBody.name`: trimmed, 1 to 100 characters) and without control characters:
 * names are printed by `docent keys list` and shown in the console, so one must not forge a row or drive a terminal.
 */
export function parseKeyName(text: string): { ok: true; name: string } | { ok: false; problem: string } {
  const parsed = CreateKeyBody.shape.name.safeParse(text)
  if (!parsed.success) return { ok: false, problem: formatIssues(parsed.error.issues) }
  const problem = controlCharacterProblem(parsed.data)
  return problem ? { ok: false, problem } : { ok: true, name: parsed.data }
}

const DAY_MS = 86_400_000
/** The API's furthest expiry (`CreateKeyBody.expiresInDays`), so a CLI key cannot outlive what the console allows. */
export const MAX_EXPIRY_DAYS = CreateKeyBody.shape.expiresInDays.unwrap().unwrap().maxValue ?? 3650
const ISO_DATE = z.iso.date()
const ISO_DATE_TIME = z.iso.datetime({ offset: true, local: true })

/**
 * `90d`, `12h`, `30m` or an ISO date (`2027-01-01`, `2027-01-01T12:00Z`) → a Date in the future, at most
 * {@link MAX_EXPIRY_DAYS} days ahead. A date that does not exist (`2030-02-30`) is refused, not rolled over.
 */
export function parseExpiry(text: string, now = new Date()): Date {
  const invalid = (why: string) => new DocentError('invalid_request', `--expires: ${why}, got "${text}"`)
  const match = /^(\d+)([dhm])$/.exec(text)
  let date: Date
  if (match) {
    const unit = { d: DAY_MS, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm']
    // Compared before a Date is made: `99999999999d` is past the largest Date there is.
    const ms = Number(match[1]) * unit
    if (ms > MAX_EXPIRY_DAYS * DAY_MS) throw invalid(`at most ${MAX_EXPIRY_DAYS} days ahead`)
    date = new Date(now.getTime() + ms)
  } else if (ISO_DATE.safeParse(text).success || ISO_DATE_TIME.safeParse(text).success) {
    date = new Date(text)
  } else {
    throw invalid('expected e.g. 90d, 12h or an existing ISO date (2027-01-31)')
  }
  if (date.getTime() <= now.getTime()) throw invalid('must be in the future')
  if (date.getTime() - now.getTime() > MAX_EXPIRY_DAYS * DAY_MS) throw invalid(`at most ${MAX_EXPIRY_DAYS} days ahead`)
  return date
}

export const describeKey = (key: KeyRecord) => (key.kind === 'assistant' ? ASSISTANT_PREFIX : ADMIN_PREFIX) + '…' + key.last4
