import type { SearchBody, SearchFilter, SearchResult } from '../../shared/search.ts'
import { beforeFirst } from '../../shared/trim.ts'
import { checkedFetch } from './errors.ts'
import { MARKDOWN_LINK, type SafeLink, safeLink } from './links.ts'

export interface SearchOptions {
  apiBase: string
  domain: string
  apiKey: string
  filter?: SearchFilter | null
}

/** A page in the search results: its best section first, the others it matched after. */
export interface PageResult {
  path: string
  title: string
  link: SafeLink
  snippet: string
  sections: Array<{ heading: string; link: SafeLink }>
}

const PAGE_SIZE = 12

/**
 * Search as the reader types: `analytics: false`, so the server does not record every prefix; the settled search
 * is reported once through the events endpoint instead.
 */
export async function searchDocs(options: SearchOptions, query: string, signal: AbortSignal): Promise<PageResult[]> {
  const body: SearchBody = {
    query,
    pageSize: PAGE_SIZE,
    filter: options.filter ?? null,
    analytics: false,
  }
  const response = await checkedFetch(`${options.apiBase}/discovery/v1/search/${encodeURIComponent(options.domain)}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${options.apiKey}`,
    },
    body: JSON.stringify(body),
    signal,
  })
  return groupByPage((await response.json()) as SearchResult[])
}

/** One entry per page (sections of one page are not five results), in the order of each page's best section. */
export function groupByPage(results: SearchResult[]): PageResult[] {
  const pages = new Map<string, PageResult>()
  for (const result of results) {
    const link = safeLink(result.metadata.url ?? `/${result.path.replace(/^\/+/, '')}`)
    if (!link) continue
    const heading = sectionHeading(result)
    const page = pages.get(result.path)
    if (page) {
      if (heading && page.sections.length < 3) {
        page.sections.push({ heading, link })
      }
      continue
    }
    pages.set(result.path, {
      path: result.path,
      title: result.metadata.title,
      link,
      snippet: snippet(result.content),
      sections: [],
    })
  }
  return [...pages.values()]
}

/** The section's name from its anchor (`#install-the-sdk` → `Install the sdk`): results carry no heading field. */
function sectionHeading(result: SearchResult): string {
  const url = result.metadata.url ?? ''
  const anchor = decodeSafely(url.slice(beforeFirst(url, '#').length + 1))
    .replace(/[-_]+/g, ' ')
    .trim()
  return anchor ? anchor[0]!.toUpperCase() + anchor.slice(1) : ''
}

function snippet(content: string): string {
  const text = content
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/^#{1,6}\s+.*$/gm, ' ')
    .replace(MARKDOWN_LINK, '$1')
    .replace(/[*_`>|#]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
  return text.length > 160 ? `${text.slice(0, 157).trimEnd()}…` : text
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
