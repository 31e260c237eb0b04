/**
 * A random id. `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost), and intranet or staging docs
 * served over plain HTTP are not one; `crypto.getRandomValues` exists everywhere.
 */
export function randomId(prefix = ''): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return prefix + [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}
