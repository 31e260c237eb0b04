/**
 * How retrieved sources are written into the system prompt. An LLM reads them as tagged text; the offline answer
 * model parses them back, so both see exactly the same sources.
 */
export interface SourceBlock {
  /** 1-based number the answer cites as `[n]`. */
  id: number
  title: string
  url: string
  content: string
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')
const unescapeAttribute = (value: string) =>
  value
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
// A page that itself contains `</source>` must not end its block early.
const escapeContent = (value: string) => value.replace(/<\/source>/gi, '<\\/source>')
const unescapeContent = (value: string) => value.replace(/<\\\/source>/gi, '</source>')

export function formatSourceBlocks(sources: SourceBlock[]): string {
  return sources
    .map(
      (s) =>
        `<source id="${s.id}" title="${escapeAttribute(s.title)}" url="${escapeAttribute(s.url)}">\n${escapeContent(
          s.content.trim(),
        )}\n</source>`,
    )
    .join('\n\n')
}

const HEADER = /<source id="(\d+)" title="([^"]*)" url="([^"]*)">\n/y
const OPENING = '<source id="'
const CLOSING = '\n</source>'

/**
 * The blocks of a prompt, in one pass: each block's header is read where it starts and its end found with indexOf,
 * so a page full of unclosed `<source ...>` lines costs linear time (a lazy `[\s\S]*?` pattern took quadratic time).
 */
export function parseSourceBlocks(text: string): SourceBlock[] {
  const blocks: SourceBlock[] = []
  for (let at = text.indexOf(OPENING); at >= 0; at = text.indexOf(OPENING, at)) {
    HEADER.lastIndex = at
    const header = HEADER.exec(text)
    if (!header) {
      at += OPENING.length
      continue
    }
    const end = text.indexOf(CLOSING, HEADER.lastIndex)
    // No block after this one can close either.
    if (end < 0) break
    blocks.push({
      id: Number(header[1]),
      title: unescapeAttribute(header[2]!),
      url: unescapeAttribute(header[3]!),
      content: unescapeContent(text.slice(HEADER.lastIndex, end)),
    })
    at = end + CLOSING.length
  }
  return blocks
}

/** The line that carries the retrieval question when a follow-up was made standalone. */
export const STANDALONE_PREFIX = 'Standalone question used for the search: '
