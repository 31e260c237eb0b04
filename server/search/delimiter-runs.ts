/**
 * Most emphasis delimiters (`*`, `_`, `~`) one paragraph may hold before they are escaped. micromark pairs them in time
 * that grows with the square of their number: 10 KB of nested `*` took 2.1 s to parse, and a site under 300 pages is
 * parsed on the server's main thread. The most any real paragraph here holds is far below (the renderer's count of
 * every inline delimiter, backticks included, tops out at 78).
 */
export const MAX_PARAGRAPH_DELIMITERS = 256

const DELIMITER = /[*_~]/g
/** A list item's marker opens its line: it is no emphasis, and is left as it is. */
const LIST_MARKER = /^[ \t]*[*+-][ \t]+/
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/**
 * The page with the emphasis delimiters of each paragraph that holds more than MAX_PARAGRAPH_DELIMITERS escaped
 * (`\*`), so they read as the characters they are. Fenced code and the frontmatter are left as they are; a page that
 * holds fewer in all is returned unchanged.
 */
export function escapeDelimiterFloods(source: string): string {
  if (countDelimiters(source) <= MAX_PARAGRAPH_DELIMITERS) return source
  const lines = source.split('\n')
  let from = frontmatterEnd(lines)
  let fence: string | null = null
  const flush = (to: number) => {
    const paragraph = lines.slice(from, to)
    if (paragraph.reduce((n, line) => n + countDelimiters(withoutMarker(line)[1]), 0) > MAX_PARAGRAPH_DELIMITERS) {
      for (let i = from; i < to; i++) {
        const [marker, rest] = withoutMarker(lines[i]!)
        lines[i] = marker + rest.replace(DELIMITER, (char, at: number) => (rest[at - 1] === '\\' ? char : `\\${char}`))
      }
    }
  }
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!
    const marker = FENCE.exec(line)?.[1]
    if (fence) {
      if (marker && marker[0] === fence[0] && marker.length >= fence.length) {
        fence = null
        from = i + 1
      }
      continue
    }
    if (marker || line.trim() === '') {
      flush(i)
      from = i + 1
      if (marker) fence = marker
    }
  }
  if (!fence) flush(lines.length)
  return lines.join('\n')
}

function countDelimiters(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (char === 42 || char === 95 || char === 126) count++
  }
  return count
}

function withoutMarker(line: string): [marker: string, rest: string] {
  const marker = LIST_MARKER.exec(line)?.[0] ?? ''
  return [marker, line.slice(marker.length)]
}

/** The line after the frontmatter's closing `---`, or 0 when the page has none. */
function frontmatterEnd(lines: string[]): number {
  if (lines[0]?.trimEnd() !== '---') return 0
  const close = lines.findIndex((line, i) => i > 0 && line.trimEnd() === '---')
  return close > 0 ? close + 1 : 0
}
