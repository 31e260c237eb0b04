import { findNodeAtLocation, type JSONPath, type Node, parseTree } from 'jsonc-parser'

/** docs.json as the offline editor reads it. Edits go into its text, so the rest of the file keeps its formatting. */
export function parseJson(text: string | undefined): { value: unknown; text: string } | null {
  if (typeof text !== 'string') return null
  try {
    return { value: JSON.parse(text) as unknown, text }
  } catch {
    return null
  }
}

export interface DocsJsonGroup {
  group: string
  pages: unknown[]
}

export interface PickedGroup {
  group: DocsJsonGroup
  /** Where in docs.json the group's `pages` array is; for a group to create, the array it joins. */
  path: JSONPath
  /** No group had the name: it is to be created beside the first group. */
  create: boolean
}

/** The named group (case-insensitive; to be created beside the first group when missing), else the first group. */
export function pickGroup(docs: unknown, name: string | null): PickedGroup | null {
  const groups: Array<{ group: DocsJsonGroup; path: JSONPath; siblings: JSONPath }> = []
  const walk = (node: unknown, path: JSONPath, siblings: JSONPath | null) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, [...path, i], path))
      return
    }
    if (!node || typeof node !== 'object') return
    const record = node as Record<string, unknown>
    if (typeof record.group === 'string' && Array.isArray(record.pages) && siblings) {
      groups.push({ group: record as unknown as DocsJsonGroup, path, siblings })
    }
    for (const [key, value] of Object.entries(record)) if (value && typeof value === 'object') walk(value, [...path, key], null)
  }
  walk((docs as { navigation?: unknown })?.navigation, ['navigation'], null)
  const found = name ? groups.find((entry) => entry.group.group.toLowerCase() === name.toLowerCase()) : groups[0]
  if (found) return { group: found.group, path: [...found.path, 'pages'], create: false }
  const first = groups[0]
  if (!name || !first) return null
  return { group: { group: name, pages: [] }, path: first.siblings, create: true }
}

/**
 * docs.json's text with `page` added at the end of the picked group (or in a new group), laid out like the entry
 * before it; nothing else in the file changes. Real docs.json files are rarely formatted as JSON.stringify would.
 */
export function addToNavigation(text: string, picked: PickedGroup, page: string): string | null {
  const root = parseTree(text)
  const array = root && findNodeAtLocation(root, picked.path)
  if (array?.type !== 'array') return null
  return appendToArray(text, array, picked.create ? { group: picked.group.group, pages: [page] } : page)
}

function appendToArray(text: string, array: Node, value: unknown): string {
  const last = array.children?.at(-1)
  if (!last) return `${text.slice(0, array.offset + 1)}${JSON.stringify(value)}${text.slice(array.offset + 1)}`
  const end = last.offset + last.length
  const lead = text.slice(text.lastIndexOf('\n', last.offset - 1) + 1, last.offset)
  // An array written on one line stays on one line.
  if (!/^[ \t]*$/.test(lead)) return `${text.slice(0, end)}, ${JSON.stringify(value)}${text.slice(end)}`
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const unit = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? '  '
  const rendered = JSON.stringify(value, null, unit).replaceAll('\n', `${eol}${lead}`)
  return `${text.slice(0, end)},${eol}${lead}${rendered}${text.slice(end)}`
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
