const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * Random bytes drawn from a pool the CSPRNG refills 4 KB at a time: one `getRandomValues` call per id cost more than
 * the rest of making it (a few ids per answer). Each byte is handed out once; callers use them at once.
 */
const pool = new Uint8Array(4096)
let poolAt = pool.length
function randomBytes(count: number): Uint8Array {
  if (poolAt + count > pool.length) {
    crypto.getRandomValues(pool)
    poolAt = 0
  }
  poolAt += count
  return pool.subarray(poolAt - count, poolAt)
}

/**
 * Random base62 text from the CSPRNG: 22 characters carry about 131 bits, so it cannot be guessed, and it is URL-safe.
 * Secrets (API keys, console sessions) are made with this directly, never through an `IdSource` a caller may replace.
 */
export function randomId(length = 22): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62] // 248 = 4 * 62: drop the rest to keep the draw uniform
      if (out.length === length) break
    }
  }
  return out
}

/** `bytes` random bytes in base64url (no padding). */
export function randomBase64Url(bytes: number): string {
  return btoa(String.fromCharCode(...randomBytes(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=/g, '')
}

/**
 * A feedback id as every store makes it when a rating first arrives (PostgreSQL's column default has the same shape:
 * `fb_` and a UUID's 32 hex digits). Stores make it themselves: a rating is upserted, and only the store knows if it is new.
 */
export const newFeedbackId = (): string => `fb_${crypto.randomUUID().replace(/-/g, '')}`

/** What a record id identifies; each kind has its own documented shape (the prefix readers see in the API). */
export type IdKind = 'job' | 'run' | 'thread' | 'message' | 'gap' | 'search' | 'click' | 'automation' | 'trigger' | 'worker'

/**
 * Makes the ids of stored records (jobs, runs, threads, messages, analytics rows, automations). Built once in
 * `createDocent` (`ctx.ids`) and replaceable through `DocentOverrides.ids`, e.g. by `sequentialIds()` in tests that
 * snapshot responses. Secrets never come from here.
 */
export type IdSource = (kind: IdKind) => string

const PREFIX: Record<IdKind, string> = {
  job: '',
  run: 'run_',
  thread: 'thr_',
  message: 'msg_',
  gap: 'gap_',
  search: 'srch_',
  click: 'clk_',
  automation: 'auto_',
  trigger: 'manual:',
  worker: 'worker_',
}

/**
 * The default: unguessable, URL-safe ids. Job ids are 22 base62 characters (the hosted API's shape), runs `run_` + 20;
 * threads, messages and analytics rows 128 random bits in base64url behind a readable prefix.
 */
export const randomIds: IdSource = (kind) => {
  switch (kind) {
    case 'job':
      return randomId(22)
    case 'run':
      return `run_${randomId(20)}`
    case 'automation':
    case 'trigger':
      return `${PREFIX[kind]}${randomId(16)}`
    case 'worker':
      return `worker_${randomId(12)}`
    default:
      return `${PREFIX[kind]}${randomBase64Url(16)}`
  }
}

/**
 * Predictable ids with each kind's prefix and a counter per kind (`thr_1`, `msg_1`, `msg_2`, job `job1`): for tests and
 * reproducible runs. Not for a server readers reach, since anyone could guess the next thread's id.
 */
export function sequentialIds(): IdSource {
  const counters = new Map<IdKind, number>()
  return (kind) => {
    const next = (counters.get(kind) ?? 0) + 1
    counters.set(kind, next)
    return kind === 'job' ? `job${next}` : `${PREFIX[kind]}${next}`
  }
}
