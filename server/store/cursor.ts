/** Opaque page cursors: the sort key of the last item, base64url-encoded. */
export function encodeCursor(at: Date, id: string): string {
  return btoa(`${at.toISOString()}|${id}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (!cursor) return null
  try {
    const text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    const [iso, id] = text.split('|')
    const at = new Date(iso ?? '')
    if (!id || Number.isNaN(at.getTime())) return null
    return { at, id }
  } catch {
    return null
  }
}

/** Sort key order shared by every adapter: newest first, id breaking ties. */
export function isBefore(a: { at: Date; id: string }, b: { at: Date; id: string }): boolean {
  const diff = a.at.getTime() - b.at.getTime()
  return diff < 0 || (diff === 0 && a.id < b.id)
}
