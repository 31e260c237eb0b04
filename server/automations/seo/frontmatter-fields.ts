import { isMap, isScalar, parseDocument } from 'yaml'
import { findFrontmatter } from '../docs-tree.ts'
import type { TextEdit } from '../edits.ts'

/**
 * Edits that set top-level frontmatter fields to text values, leaving every other byte of the file as it was: a
 * field that is there has its `key: value` replaced (a folded or multi-line value included), a missing one is a new
 * line (`title` first, the others after `title` or at the top), and a page with no frontmatter gets a block. Values
 * are written double-quoted with JSON escapes, which YAML reads the same. Undefined when the YAML cannot be read.
 */
export function setFrontmatterFields(text: string, fields: Array<[key: string, value: string]>): TextEdit[] | undefined {
  const frontmatter = findFrontmatter(text)
  const eol = frontmatter?.eol ?? (text.includes('\r\n') ? '\r\n' : '\n')
  const line = (key: string, value: string) => `${key}: ${JSON.stringify(value)}`
  if (!frontmatter) {
    return [{ start: 0, end: 0, text: `---${eol}${fields.map(([key, value]) => line(key, value) + eol).join('')}---${eol}${eol}` }]
  }
  const document = parseDocument(frontmatter.yaml)
  if (document.errors.length > 0 || !(isMap(document.contents) || document.contents === null)) return undefined
  const existing = new Map<string, [number, number]>()
  for (const pair of isMap(document.contents) ? document.contents.items : []) {
    if (!isScalar(pair.key) || typeof pair.key.value !== 'string' || !pair.key.range) continue
    const value = pair.value as { range?: [number, number, number] } | null
    let end = value?.range?.[1] ?? pair.key.range[1]
    while (end > pair.key.range[0] && /[\r\n]/.test(frontmatter.yaml[end - 1]!)) end--
    existing.set(pair.key.value, [frontmatter.start + pair.key.range[0], frontmatter.start + end])
  }
  const edits: TextEdit[] = []
  const added: string[] = []
  for (const [key, value] of fields) {
    const at = existing.get(key)
    if (at) edits.push({ start: at[0], end: at[1], text: line(key, value) })
    else added.push(line(key, value) + eol)
  }
  if (added.length) {
    // New fields go after an existing title (so title, description read in that order), else at the top.
    const title = existing.get('title')
    const after = title && !fields.some(([key]) => key === 'title') ? lineEnd(text, title[1]) : frontmatter.start
    edits.push({ start: after, end: after, text: added.join('') })
  }
  return edits.sort((a, b) => a.start - b.start)
}

/** The offset just past the line break that ends the line holding `offset`. */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset)
  return newline === -1 ? text.length : newline + 1
}
