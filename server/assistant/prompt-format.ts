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

/** The first words of the system prompt, which name the docs: "Sources from the Acme documentation…". */
export function sourcesHeading(docsName: string): string {
  return `Sources from the ${docsName} documentation`
}

/** The docs' name, from a system prompt that starts with `sourcesHeading`. */
export function readDocsName(system: string): string | undefined {
  return /^Sources from the (.+?) documentation\b/.exec(system)?.[1]
}

/** The line that carries the retrieval question when a follow-up was made standalone. */
export const STANDALONE_PREFIX = 'Standalone question used for the search: '

/** What follows `prefix` on the system prompt's line that starts with it (STANDALONE_PREFIX, UNKNOWN_WORDS_PREFIX). */
export function readPromptLine(system: string, prefix: string): string | undefined {
  return system
    .split('\n')
    .find((line) => line.startsWith(prefix))
    ?.slice(prefix.length)
}

/**
 * The line that names the question's words the docs never use (a question about a passport asked of a docs site): it
 * tells a model that sources matching the other words are not about what was asked.
 */
export const UNKNOWN_WORDS_PREFIX = 'Words of the question that these docs never use: '

/** The words of the UNKNOWN_WORDS_PREFIX line of a system prompt; empty when it has none. */
export function readUnknownWords(system: string): string[] {
  return (readPromptLine(system, UNKNOWN_WORDS_PREFIX) ?? '').split(', ').filter(Boolean)
}

/**
 * How an answer starts when the docs do not cover the question: the offline model writes it, and the LLM's system
 * prompt tells it to start such an answer with it, so such turns can be told apart (`isDecline` in server/analytics/decline.ts).
 */
export const DECLINE = 'The docs do not cover this question.'

/** A question that leans on the reader's page, written so a model sees which page ("… (asked on the page "Fonts")"). */
export function onPage(question: string, pageTitle: string): string {
  return `${question} (asked on the page "${pageTitle.replace(/"/g, "'")}")`
}

/** The question and the page it was asked on, from what `onPage` wrote (or the question alone). */
export function readOnPage(text: string): { question: string; page?: string } {
  const match = /^([\s\S]*?) \(asked on the page "([^"]*)"\)$/.exec(text)
  return match ? { question: match[1]!, page: match[2]! } : { question: text }
}
