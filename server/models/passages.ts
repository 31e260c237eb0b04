/** Splits a source's markdown into the smallest units an extractive answer can quote: sentences, list items, code. */

export interface Passage {
  sourceId: number
  /** Position within its source, to keep quoted passages in reading order. */
  index: number
  kind: 'text' | 'code'
  text: string
}

const MAX_CODE_LINES = 12

export function splitPassages(sourceId: number, markdown: string): Passage[] {
  const passages: Passage[] = []
  const push = (kind: Passage['kind'], text: string) => {
    const trimmed = text.trim()
    if (trimmed) passages.push({ sourceId, index: passages.length, kind, text: trimmed })
  }
  const lines = markdown.split('\n')
  let paragraph: string[] = []
  let header: string[] = []
  const flush = () => {
    for (const sentence of splitSentences(paragraph.join(' '))) push('text', sentence)
    paragraph = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = /^\s*(```|~~~)/.exec(line)
    if (fence) {
      flush()
      const body: string[] = [line]
      while (++i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!)) body.push(lines[i]!)
      body.push(fence[1]!)
      if (body.length - 2 <= MAX_CODE_LINES) push('code', body.join('\n'))
      continue
    }
    if (/^\s*$/.test(line) || /^\s*#{1,6}\s/.test(line) || /^\s*<\/?[A-Za-z][^>]*>\s*$/.test(line)) {
      flush()
      continue
    }
    if (/^\s*\|/.test(line)) {
      flush()
      // The header row (the one above the `|---|` line) says nothing alone; each row is quoted with its column names.
      if (/^\s*\|[\s|:-]+\|\s*$/.test(lines[i + 1] ?? '')) header = cellsOf(line)
      else if (!/^\s*\|[\s|:-]+\|\s*$/.test(line)) push('text', tableRow(cellsOf(line), header))
      continue
    }
    if (/^\s*([-*+]|\d+[.)])\s+/.test(line)) {
      flush()
      // A list item is quoted whole: its sentences lean on each other.
      push('text', line.replace(/^\s*([-*+]|\d+[.)])\s+/, ''))
      continue
    }
    paragraph.push(line.trim())
  }
  flush()
  return passages
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => cell.trim())

/** `Action: Delete flags; Owner: ✓; Editor: —`: a row of a permission matrix means nothing without its columns. */
function tableRow(cells: string[], header: string[]): string {
  return cells
    .map((cell, i) => (header[i] ? `${header[i]}: ${cell}` : cell))
    .filter((cell) => cell.trim())
    .join('; ')
}

/** Sentence ends: `.`, `!` or `?` followed by space and a capital, a backtick, a link or emphasis. */
function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z`[*_"(])/)
}
