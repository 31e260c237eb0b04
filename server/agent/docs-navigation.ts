/** docs.json as the offline editor edits it: parsed, changed, written back with its own indentation. */
export function parseJson(text: string | undefined): { value: unknown; stringify(): string } | null {
  if (typeof text !== 'string') return null
  try {
    const value = JSON.parse(text) as unknown
    const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? '  '
    return { value, stringify: () => `${JSON.stringify(value, null, indent)}${text.endsWith('\n') ? '\n' : ''}` }
  } catch {
    return null
  }
}

export interface NavGroup {
  group: string
  pages: unknown[]
}

/** The named group (case-insensitive; created beside the first group when missing), else the first group. */
export function pickGroup(docs: unknown, name: string | null): NavGroup | null {
  const groups: Array<{ group: NavGroup; siblings: unknown[] }> = []
  const walk = (node: unknown, siblings: unknown[] | null) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, node)
      return
    }
    if (!node || typeof node !== 'object') return
    const record = node as Record<string, unknown>
    if (typeof record.group === 'string' && Array.isArray(record.pages) && siblings) groups.push({ group: record as unknown as NavGroup, siblings })
    for (const value of Object.values(record)) if (value && typeof value === 'object') walk(value, null)
  }
  walk((docs as { navigation?: unknown })?.navigation, null)
  if (name) {
    const match = groups.find((entry) => entry.group.group.toLowerCase() === name.toLowerCase())
    if (match) return match.group
    const first = groups[0]
    if (!first) return null
    const created: NavGroup = { group: name, pages: [] }
    first.siblings.push(created)
    return created
  }
  return groups[0]?.group ?? null
}

/** The folder most pages of a group live in ('' for the root). */
export function folderOf(pages: unknown[]): string {
  const counts = new Map<string, number>()
  for (const page of pages) {
    if (typeof page !== 'string') continue
    const folder = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : ''
    counts.set(folder, (counts.get(folder) ?? 0) + 1)
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''
}
