const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/** Random base62 text: 22 characters carry about 131 bits, so ids cannot be guessed, and they are URL-safe. */
export function randomId(length = 22): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
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
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const base64 = btoa(String.fromCharCode(...bytes))
  return `${prefix}_${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')}`
}
