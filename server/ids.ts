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

/** Random base62 text: 22 characters carry about 131 bits, so ids cannot be guessed, and they are URL-safe. */
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

/** A job id: unguessable, URL-safe. */
export const newJobId = (): string => randomId(22)
export const newRunId = (): string => `run_${randomId(20)}`

/** Thread, message and analytics ids: 128 random bits in base64url behind a readable prefix. */
export function newId(prefix: 'thr' | 'msg' | 'gap' | 'srch' | 'clk'): string {
  const bytes = randomBytes(16)
  const base64 = btoa(String.fromCharCode(...bytes))
  return `${prefix}_${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')}`
}
