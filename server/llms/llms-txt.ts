import type { Corpus, PageInfo } from '../search/types.ts'
import { absoluteLinks } from './absolute-links.ts'
import type { ProjectLinks } from './links.ts'

/** Pages outside the navigation: the llms.txt format names this section as the one a reader may skip. */
const OFF_NAVIGATION = 'Optional'

/**
 * llms.txt (https://llmstxt.org): `# name`, `> summary`, then one `## section` per navigation group with a
 * `- [title](url): description` line per page. Links point at the pages' markdown, which is what the format asks for.
 */
export function llmsTxt(corpus: Corpus, links: ProjectLinks): string {
  const lines = header(corpus)
  lines.push('', `The full text of every page is at ${links.llmsBase}/llms-full.txt.`)
  for (const [section, pages] of sections(corpus.pages())) {
    lines.push('', `## ${section}`, '')
    for (const page of pages) {
      const description = oneLine(page.description)
      lines.push(`- [${escapeLinkText(page.title)}](${links.markdown(page.url)})${description ? `: ${description}` : ''}`)
    }
  }
  return lines.join('\n') + '\n'
}

/** llms-full.txt: the same header, then every listed page's markdown once, each headed by its title and source URL. */
export function llmsFullTxt(corpus: Corpus, links: ProjectLinks): string {
  const parts = [header(corpus).join('\n')]
  for (const pages of sections(corpus.pages()).values()) {
    for (const page of pages) {
      const content = corpus.page(page.path)?.content
      if (content === undefined) continue
      parts.push(withSource(absoluteLinks(content, links.resolve), page, links.page(page.url)))
    }
  }
  return parts.join('\n\n---\n\n') + '\n'
}

function header(corpus: Corpus): string[] {
  const lines = [`# ${oneLine(corpus.name) || 'Documentation'}`]
  const summary = oneLine(corpus.description)
  if (summary) lines.push('', `> ${summary}`)
  return lines
}

/**
 * Listed pages grouped by navigation trail, in navigation order. Pages of a version other than the one most pages
 * are in get the version in their section name, so `v1` and `v2` sections with the same group names stay apart.
 */
export function sections(all: PageInfo[]): Map<string, PageInfo[]> {
  const pages = all.filter((page) => !page.hidden)
  const mainVersion = mostCommon(pages.map((page) => page.version).filter((v): v is string => Boolean(v)))
  const grouped = new Map<string, PageInfo[]>()
  const offNavigation: PageInfo[] = []
  for (const page of pages) {
    if (page.groups.length === 0) {
      offNavigation.push(page)
      continue
    }
    let name = page.groups.map(oneLine).join(' / ')
    if (page.version && mainVersion && page.version !== mainVersion && !name.includes(page.version)) name += ` (${page.version})`
    const list = grouped.get(name)
    if (list) list.push(page)
    else grouped.set(name, [page])
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

function mostCommon(values: string[]): string | undefined {
  const counts = new Map<string, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0]
}

const oneLine = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim()
const escapeLinkText = (text: string) => oneLine(text).replace(/[[\]\\]/g, '\\$&')
