import type { Corpus, PageInfo } from '../search/types.ts'
import { oneLine } from '../keys/control-characters.ts'
import { shownMarkdown } from '../site/shown-text.ts'
import { absoluteLinks } from './absolute-links.ts'
import type { ProjectLinks } from './links.ts'

/** Pages outside the navigation: the llms.txt format names this section as the one a reader may skip. */
const OFF_NAVIGATION = 'Optional'

/**
 * llms.txt (https://llmstxt.org): `# name`, `> summary`, then one `## section` per navigation group with a
 * `- [title](url): description` line per page. Links point at the pages' markdown, which is what the format asks for.
 */
export function llmsTxt(corpus: Corpus, links: ProjectLinks, docsName: string): string {
  const lines = header(corpus, docsName)
  lines.push('', `The full text of every page is at ${links.llmsBase}/llms-full.txt.`)
  for (const [section, pages] of sections(corpus.pages())) {
    lines.push('', `## ${section}`, '')
    for (const page of pages) {
      const description = oneLine(page.description)
      lines.push(`- [${escapeLinkText(page.title)}](${links.markdownOf(page)})${description ? `: ${description}` : ''}`)
    }
  }
  return lines.join('\n') + '\n'
}

/** llms-full.txt: the same header, then every listed page's markdown once, each headed by its title and source URL. */
export function llmsFullTxt(corpus: Corpus, links: ProjectLinks, docsName: string): string {
  const parts = [header(corpus, docsName).join('\n')]
  for (const pages of sections(corpus.pages()).values()) {
    for (const page of pages) {
      const content = corpus.page(page.path)?.content
      if (content === undefined) continue
      parts.push(withSource(absoluteLinks(shownMarkdown(content), links.resolve), page, links.pageOf(page)))
    }
  }
  return parts.join('\n\n---\n\n') + '\n'
}

function header(corpus: Corpus, docsName: string): string[] {
  const lines = [`# ${oneLine(docsName) || 'Documentation'}`]
  const summary = oneLine(corpus.description)
  if (summary) lines.push('', `> ${summary}`)
  return lines
}

/**
 * Listed pages grouped by navigation trail, in navigation order. A page of another version or language than the
 * site's first page (the default one) gets those in its section name, so `v1` and `fr` sections stay apart.
 */
export function sections(all: PageInfo[]): Map<string, PageInfo[]> {
  const pages = all.filter((page) => page.inContext)
  const main = pages.find((page) => page.groups.length > 0) ?? pages[0]
  const grouped = new Map<string, PageInfo[]>()
  const offNavigation: PageInfo[] = []
  for (const page of pages) {
    if (page.groups.length === 0) {
      offNavigation.push(page)
      continue
    }
    const name = page.groups.map(oneLine).join(' / ')
    const variant = [page.version !== main?.version && page.version, page.language !== main?.language && page.language]
      .filter((value): value is string => Boolean(value) && !name.includes(value as string))
      .join(', ')
    const section = variant ? `${name} (${variant})` : name
    const list = grouped.get(section)
    if (list) list.push(page)
    else grouped.set(section, [page])
  }
  if (offNavigation.length > 0) grouped.set(OFF_NAVIGATION, offNavigation)
  return grouped
}

/** Puts `Source: <url>` under the page's top heading (adding the heading when the markdown has none). */
function withSource(content: string, page: PageInfo, source: string): string {
  const body = content.trim()
  const firstLine = /^# .*$/m.exec(body)
  if (firstLine && firstLine.index === 0) {
    return `${firstLine[0]}\nSource: ${source}\n\n${body.slice(firstLine[0].length).trimStart()}`
  }
  return `# ${oneLine(page.title)}\nSource: ${source}\n\n${body}`
}

const escapeLinkText = (text: string) => oneLine(text).replace(/[[\]\\]/g, '\\$&')
