import { constantTimeEqual, sha256Hex } from '../keys/keys.ts'

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')

/**
 * GitHub's `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with the webhook secret
 * (also what Gitea and Forgejo send). Compared in constant time.
 */
export async function verifyGitHubSignature(secret: string, body: Uint8Array<ArrayBuffer>, header: string | undefined): Promise<boolean> {
  if (!header?.startsWith('sha256=')) return false
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const expected = `sha256=${hex(await crypto.subtle.sign('HMAC', key, body))}`
  return constantTimeEqual(expected, header.trim().toLowerCase())
}

/** GitLab's `X-Gitlab-Token`: the secret token itself. Hashes are compared, so not even its length shows. */
export async function verifyGitLabToken(token: string, header: string | undefined): Promise<boolean> {
  if (header === undefined) return false
  return constantTimeEqual(await sha256Hex(token), await sha256Hex(header))
}
