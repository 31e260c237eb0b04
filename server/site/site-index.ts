import type { Corpus, PageInfo } from '../search/types.ts'
import { SizedCache } from '../sized-cache.ts'
import { buildNavigation, type NavGroup, readingOrder } from './navigation.ts'
import type { RenderedPage } from './page-html.ts'
import { shownMarkdown, shownPage } from './shown-text.ts'

/** What every page of one revision of the docs shares, worked out once per revision, not per request. */
export interface SiteIndex {
  navigation: NavGroup[]
  /** Pages in the sidebar's order, and each one's place in it, for previous/next links. */
  order: PageInfo[]
  readingIndex: Map<string, number>
  pageByUrl: Map<string, PageInfo>
  firstGuide: PageInfo | undefined
  /** Rendered pages: rendering a large page takes up to a second; a page is rendered once per revision. */
  rendered: SizedCache<RenderedPage>
}

/** Characters of rendered HTML kept per revision of the site. */
export const RENDERED_CACHE_CHARS = 32_000_000
const siteIndexes = new WeakMap<Corpus, SiteIndex>()

export function siteIndexOf(corpus: Corpus): SiteIndex {
  let site = siteIndexes.get(corpus)
  if (!site) {
    // Titles as the site shows them, once per revision.
    const pages = corpus.pages().map(shownPage)
    const navigation = buildNavigation(pages)
    const order = readingOrder(navigation)
    site = {
      navigation,
      order,
      readingIndex: new Map(order.map((page, index) => [page.url, index])),
      // The first page at a URL wins, as a search of the list did.
      pageByUrl: new Map([...pages].reverse().map((page) => [page.url, page])),
      firstGuide: pages.find((page) => !page.hidden && page.path.startsWith('guides/')),
      rendered: new SizedCache(RENDERED_CACHE_CHARS, (page) => page.html.length),
    }
    siteIndexes.set(corpus, site)
  }
  return site
}

/** A page's markdown rendered as the site shows it (its lead clean, see shownMarkdown), once per revision. */
export async function renderedOf(site: SiteIndex, path: string, markdown: string): Promise<RenderedPage> {
  const cached = site.rendered.get(path)
  if (cached) return cached
  // The markdown renderer (marked) loads with the first page served, not with the server.
  const { renderPageHtml } = await import('./page-html.ts')
  const rendered = renderPageHtml(shownMarkdown(markdown))
  site.rendered.set(path, rendered)
  return rendered
}
