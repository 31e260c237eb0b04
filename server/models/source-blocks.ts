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

const blockPattern = /<source id="(\d+)" title="([^"]*)" url="([^"]*)">\n([\s\S]*?)\n<\/source>/g

export function parseSourceBlocks(text: string): SourceBlock[] {
  return [...text.matchAll(blockPattern)].map((m) => ({
    id: Number(m[1]),
    title: unescapeAttribute(m[2]!),
    url: unescapeAttribute(m[3]!),
    content: unescapeContent(m[4]!),
  }))
}

/** The line that carries the retrieval question when a follow-up was made standalone. */
export const STANDALONE_PREFIX = 'Standalone question used for the search: '
