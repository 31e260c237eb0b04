/** Unguessable, URL-safe ids: 128 random bits in base64url behind a readable prefix. */
export function newId(prefix: 'thr' | 'msg' | 'gap' | 'srch' | 'clk'): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  const base64 = btoa(String.fromCharCode(...bytes))
  return `${prefix}_${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`
}
