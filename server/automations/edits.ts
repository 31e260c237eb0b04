/**
 * What the maintenance engines hand the run executor: exact edits of a file's text, so a fix changes the characters
 * it means to (a link target, a word, a frontmatter line) and the rest of the file stays byte-identical.
 */

/** The characters in `[start, end)` of the file's text become `text`. Offsets index the JavaScript string (UTF-16). */
export interface TextEdit {
  start: number
  end: number
  text: string
}

/** An engine's edits to one file, in order and not overlapping. `create`: a new file, whose one edit is its text. */
export interface FileEdit {
  path: string
  edits: TextEdit[]
  create?: boolean
}

/** The text with the edits made; throws on edits that overlap or fall outside the text (an engine bug, not bad input). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end)
  let out = ''
  let at = 0
  for (const edit of sorted) {
    if (edit.start < at || edit.end < edit.start || edit.end > text.length) {
      throw new RangeError(`edits overlap or fall outside the text: [${edit.start}, ${edit.end}) after ${at} of ${text.length}`)
    }
    out += text.slice(at, edit.start) + edit.text
    at = edit.end
  }
  return out + text.slice(at)
}

/** The new texts of the files the edits change (created files included), keyed by path. */
export function applyFileEdits(files: ReadonlyMap<string, string>, changes: readonly FileEdit[]): Map<string, string> {
  const out = new Map<string, string>()
  for (const change of changes) {
    const before = out.get(change.path) ?? (change.create ? '' : files.get(change.path))
    if (before === undefined) throw new RangeError(`edits to a file that does not exist: ${change.path}`)
    out.set(change.path, applyEdits(before, change.edits))
  }
  return out
}

/** 1-based line and column of an offset, as editors and PR comments show them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1
  let lineStart = 0
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++
    lineStart = i + 1
  }
  return { line, column: offset - lineStart + 1 }
}

/** Groups `(path, edit)` pairs into one FileEdit a file, paths and edits in order. */
export function groupEdits(pairs: Iterable<{ path: string; edit: TextEdit }>): FileEdit[] {
  const byPath = new Map<string, TextEdit[]>()
  for (const { path, edit } of pairs) {
    const list = byPath.get(path) ?? []
    list.push(edit)
    byPath.set(path, list)
  }
  return [...byPath]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([path, edits]) => ({ path, edits: edits.sort((a, b) => a.start - b.start) }))
}

/** One edit that turns `before` into `after`: what lies between their common start and common end. */
export function editBetween(before: string, after: string): TextEdit {
  let start = 0
  while (start < before.length && start < after.length && before[start] === after[start]) start++
  let end = 0
  while (end < before.length - start && end < after.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) {
    end++
  }
  return { start, end: before.length - end, text: after.slice(start, after.length - end) }
}
