const encoder = new TextEncoder()

/**
 * GitHub's `X-Hub-Signature-256: sha256=<hex>`: an HMAC-SHA256 of the raw body with the webhook's secret. True when
 * one of the configured secrets made it; compared in constant time.
 */
export async function verifyGitHubSignature(body: Uint8Array, header: string | undefined, secrets: readonly string[]): Promise<boolean> {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '')
  if (!match) return false
  const given = hexBytes(match[1]!.toLowerCase())
  let valid = false
  for (const secret of secrets) {
    const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
    const expected = new Uint8Array(await crypto.subtle.sign('HMAC', key, body as Uint8Array<ArrayBuffer>))
    // Every secret is tried: how long this takes says nothing about which one matched, or how much of it.
    valid = constantTimeEqual(given, expected) || valid
  }
  return valid
}

/** GitLab's `X-Gitlab-Token`: the secret token itself, compared in constant time (as SHA-256 digests, so lengths leak nothing). */
export async function verifyGitLabToken(header: string | undefined, secrets: readonly string[]): Promise<boolean> {
  if (!header) return false
  const given = await digest(header)
  let valid = false
  for (const secret of secrets) valid = constantTimeEqual(given, await digest(secret)) || valid
  return valid
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)))
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!
  return difference === 0
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return bytes
}
