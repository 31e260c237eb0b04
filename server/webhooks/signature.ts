import { constantTimeEqual, sha256Hex } from '../keys/keys.ts'

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('')

/**
 * GitHub's `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with the webhook secret
 * (also what Gitea and Forgejo send). Returns the positions in `secrets` of those that signed the body: who vouches
 * for the delivery (none: it is refused). Compared in constant time; every secret is tried, so how long this takes says
 * nothing about which matched.
 */
export async function gitHubSigners(
  secrets: readonly string[],
  body: Uint8Array<ArrayBuffer>,
  header: string | undefined,
): Promise<number[]> {
  const given = header?.trim().toLowerCase()
  // 'sha256=' and 64 hex digits; the length is checked apart from the pattern (see shapes.ts).
  if (given?.length !== 71 || !/^sha256=[0-9a-f]+$/.test(given)) return []
  const signers: number[] = []
  for (const [i, secret] of secrets.entries()) {
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    if (constantTimeEqual(`sha256=${hex(await crypto.subtle.sign('HMAC', key, body))}`, given)) signers.push(i)
  }
  return signers
}

/**
 * GitLab's `X-Gitlab-Token`, the secret token itself: the positions in `secrets` of the tokens equal to it. Hashes are
 * compared, so not even its length shows.
 */
export async function gitLabSigners(secrets: readonly string[], header: string | undefined): Promise<number[]> {
  if (!header) return []
  const given = await sha256Hex(header)
  const signers: number[] = []
  for (const [i, token] of secrets.entries()) if (constantTimeEqual(await sha256Hex(token), given)) signers.push(i)
  return signers
}
