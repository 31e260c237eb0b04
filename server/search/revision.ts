/** A short SHA-256 over every file's path and text: the revision of a docs directory. */
export async function contentRevision(files: Map<string, string>): Promise<string> {
  const encoder = new TextEncoder()
  const parts: string[] = []
  for (const path of [...files.keys()].sort()) parts.push(path, '\0', files.get(path)!, '\0')
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(parts.join('')))
  return [...new Uint8Array(digest)]
    .slice(0, 10)
    .map((byte) => byte.toString(16).padStart(2, '0'))
    .join('')
}
