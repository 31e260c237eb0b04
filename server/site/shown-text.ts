import { oneLine, withoutControlCharacters } from '../keys/control-characters.ts'
import type { PageInfo } from '../search/types.ts'

/**
 * The text of the docs' titles, names and descriptions as the site and the docs files write it. It comes from the
 * docs repository as written: a NUL or an ESC sequence in a title went raw into llms.txt (read in terminals and by
 * tools that stop at a NUL) and into the HTML, where it is a parse error. Control characters are those of
 * `isControlCharacter` (C0, DEL, C1, bidirectional overrides).
 */

/** A page as the site and the docs files show it: its title and navigation groups on one line, its description clean. */
export function shownPage(page: PageInfo): PageInfo {
  return {
    ...page,
    title: oneLine(page.title),
    groups: page.groups.map(oneLine),
    ...(page.description === undefined ? {} : { description: withoutControlCharacters(page.description) }),
  }
}

/**
 * A page's markdown with its lead as shownPage shows it: parse-page.ts starts the markdown with the title (`# ...`)
 * and, when the frontmatter has one, the description's paragraph. The paragraph after the title is cleaned either way
 * (in a body's first paragraph a control character means nothing either); the rest stays as written.
 */
export function shownMarkdown(markdown: string): string {
  if (!markdown.startsWith('# ')) return markdown
  const titleEnd = endOfLine(markdown, 0)
  const paragraph = markdown.indexOf('\n\n', titleEnd + 2)
  const leadEnd = paragraph === -1 ? markdown.length : paragraph
  return `# ${oneLine(markdown.slice(2, titleEnd))}${withoutControlCharacters(markdown.slice(titleEnd, leadEnd))}${markdown.slice(leadEnd)}`
}

const endOfLine = (text: string, from: number) => {
  const end = text.indexOf('\n', from)
  return end === -1 ? text.length : end
}
