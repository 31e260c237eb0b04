import type { SearchFilter } from '../../shared/search.ts'
import { chunkPage } from './chunk.ts'
import type { DocPage, DocsSite } from './docs-site.ts'
import { packedIndex } from './engines/packed.ts'
import { entryPoints } from './entry-points.ts'
import type { SectionIndex } from './engines/types.ts'
import { candidateCount, type CorpusEmbeddings, fuse, nearestSections } from './hybrid.ts'
import { normalizePath } from './navigation.ts'
import { isWeak, parseQuery, type SearchQuery } from './query.ts'
import type { Corpus, PageInfo, ReaderPage, SearchHit, SearchOptions, Section } from './types.ts'

/** Score multipliers for the reader's page and the pages beside it in the navigation. */
const CURRENT_PAGE_BOOST = 1.5
const NEIGHBOUR_BOOST = 1.15
/** Sections ranked by the index before entry pages join them and duplicates leave. */
const CANDIDATES = 50
/**
 * On a site in several languages, pages in another language than the reader's rank lower (not out: a filter does
 * that). Measured on bench/search-quality (Mintlify, en/fr/es/zh): recall@5 0.944 → 0.967 with it.
 */
const OTHER_LANGUAGE = 0.6
/** Pages the conversation has been about (the previous answer's sources). */
const RELATED_BOOST = 1.3

export type IndexFactory = (sections: Section[]) => SectionIndex

export type BuiltCorpus = Corpus & {
  sections: Section[]
  /** The same corpus with hybrid search over these section vectors. */
  withEmbeddings(embeddings: CorpusEmbeddings): BuiltCorpus
}

/** Chunks every searchable page of a site and indexes the sections. */
export function buildCorpus(site: DocsSite, makeIndex: IndexFactory = packedIndex): BuiltCorpus {
  const sections: Section[] = []
  for (const page of site.pages.values()) {
    if (page.meta.hidden || page.meta.noindex) continue
    for (const section of chunkPage(page)) sections.push(section)
  }
  const index = makeIndex(sections)
  const maxPageBoost = [...site.pages.values()].reduce((max, page) => Math.max(max, page.boost), 1)
  const boosted = [...site.pages.values()].some((page) => page.boost !== 1)
  const byUrl = new Map([...site.pages.values()].map((page) => [page.url, page]))
  const lookup = (path: string) => site.pages.get(path) ?? site.pages.get(`${path}/index`) ?? byUrl.get(`/${path}`)
  /**
   * A page by path, file name or URL. Leniently (for the reader's current page), a site mounted under a prefix
   * (`/docs/...`, `/v1/...`) still finds its pages.
   */
  const findPage = (raw: string, lenient = false): DocPage | undefined => {
    const path = normalizePath(urlPath(raw))
    if (!path) return undefined
    const parts = path.split('/')
    for (let skip = 0; skip < (lenient ? Math.min(parts.length, 3) : 1); skip++) {
      const page = lookup(parts.slice(skip).join('/'))
      if (page) return page
    }
    return undefined
  }
  // A page's sections are consecutive: [first, last + 1) by index.
  const pageRange = new Map<string, [number, number]>()
  sections.forEach((section, i) => {
    const range = pageRange.get(section.path)
    if (range) range[1] = i + 1
    else pageRange.set(section.path, [i, i + 1])
  })
  const firstSection = new Map([...pageRange].map(([path, [from]]) => [path, sections[from]!]))
  const entries = entryPoints(site, (path) => firstSection.has(path))
  const defaultLanguage = site.navigation.languages[0]

  /** The filter and the boost (reader's page, its neighbours, page boosts, language) a query's options ask for. */
  const rankingOf = (options: SearchOptions) => {
    const current = options.currentPath ? findPage(options.currentPath, true) : undefined
    const near = current ? nearness(current, site) : undefined
    const language = !options.filter?.language && site.navigation.languages.length > 1 ? (current?.language ?? defaultLanguage) : undefined
    const foreign = language
      ? (section: Section) => (section.languages?.length && !section.languages.includes(language) ? OTHER_LANGUAGE : 1)
      : undefined
    const related = options.related?.length ? new Set(options.related) : undefined
    const within = options.withinPage ? findPage(options.withinPage, true)?.path ?? '\0' : undefined
    const filters = [options.filter ? matches(options.filter) : undefined, within ? (s: Section) => s.path === within : undefined]
      .filter((f) => f !== undefined)
    return {
      filter: filters.length === 0 ? undefined : (section: Section) => filters.every((f) => f(section)),
      foreign,
      boost: near || boosted || foreign || related
        ? (section: Section) =>
          (near?.(section) ?? 1) * (site.pages.get(section.path)?.boost ?? 1) * (foreign?.(section) ?? 1) *
          (related?.has(section.path) ? RELATED_BOOST : 1)
        : undefined,
      maxBoost: (near ? CURRENT_PAGE_BOOST : 1) * maxPageBoost * (related ? RELATED_BOOST : 1),
    }
  }
  const search = (text: string, options: SearchOptions): SearchHit[] => {
    const query = parseQuery(text, options.context ?? [])
    const ranking = rankingOf(options)
    const raw = index.search(query, { limit: Math.max(CANDIDATES, options.pageSize), ...ranking })
    return rerank(text, query, raw, ranking, options)
  }
  /**
   * The index's candidates, with the entry pages the question asks for (see entry-points.ts) and without repeats (a
   * snippet included on several pages is one answer, not five). Scores end relative to the best hit.
   */
  const rerank = (
    text: string,
    query: SearchQuery,
    raw: Array<{ section: Section; score: number }>,
    ranking: ReturnType<typeof rankingOf>,
    options: SearchOptions,
  ): SearchHit[] => {
    const scored = raw.sort((a, b) => b.score - a.score)
    const best = scored[0]?.score ?? 1
    const third = scored[2]?.score ?? best
    const wanted = entries.of(text, query)
    wanted.forEach((entry, i) => {
      const section = firstSection.get(entry.path)!
      if ((ranking.filter && !ranking.filter(section)) || (ranking.foreign?.(section) ?? 1) < 1) return
      const known = scored.filter((hit) => hit.section.path === entry.path)
      // Asked for by name and nothing else, the entry pages lead, in the order they were found; asked for beside a
      // subject, an entry page is at least third.
      const floor = (entry.strong ? best : third) * (1 + 0.01 * (wanted.length - i))
      if (known.length === 0) scored.push({ section, score: floor })
      for (const hit of known) hit.score = Math.max(hit.score, floor)
    })
    scored.sort((a, b) => b.score - a.score)
    const seen = new Set<string>()
    const hits: Array<{ section: Section; score: number }> = []
    for (const hit of scored) {
      if (seen.has(hit.section.content)) continue
      seen.add(hit.section.content)
      hits.push(hit)
      if (hits.length === options.pageSize) break
    }
    const top = hits[0]?.score ?? 0
    const threshold = options.scoreThreshold ?? 0
    return hits.map(({ section, score }) => ({ section, score: top > 0 ? score / top : 0 })).filter((hit) => hit.score >= threshold)
  }
  /** BM25 and vector rankings of the sections that pass the filter, fused; the boost applies once, after fusion. */
  const searchHybrid = async (embeddings: CorpusEmbeddings, text: string, options: SearchOptions): Promise<SearchHit[]> => {
    const ranking = rankingOf(options)
    const { filter } = ranking
    const limit = candidateCount(options.pageSize)
    let nearest: Section[]
    try {
      const queryVector = await embeddings.embedQuery(text)
      nearest = nearestSections(queryVector, embeddings, (i) => !filter || filter(sections[i]!), limit).map((i) => sections[i]!)
    } catch (error) {
      embeddings.onQueryError?.(error)
      return search(text, options)
    }
    const query = parseQuery(text, options.context ?? [])
    const bm25 = index.search(query, { limit, filter }).map((hit) => hit.section)
    return rerank(text, query, fuse([bm25, nearest], ranking.boost ?? (() => 1)), ranking, options)
  }
  const corpus = (embeddings?: CorpusEmbeddings): BuiltCorpus => ({
    name: site.name ?? 'Docs',
    description: site.description,
    revision: site.revision,
    sections,
    search,
    ...(embeddings ? { searchHybrid: (query: string, options: SearchOptions) => searchHybrid(embeddings, query, options) } : {}),
    withEmbeddings: (next) => {
      if (next.matrix.length !== sections.length * next.dimensions) {
        throw new Error(`${next.matrix.length / next.dimensions} vectors for ${sections.length} sections`)
      }
      return corpus(next)
    },
    readerPage(path: string): ReaderPage | undefined {
      const page = findPage(path, true)
      const range = page && pageRange.get(page.path)
      if (!page || !range || page.meta.hidden) return undefined
      return {
        path: page.path,
        url: page.url,
        title: page.title,
        description: page.meta.description,
        sections: sections.slice(range[0], range[1]),
        covers: (question) => {
          // Everyday words ("look", "before") say nothing of the page either way.
          const query = { words: parseQuery(question).words.filter((word) => word.counts && !isWeak(word)) }
          return query.words.length === 0 ? 0 : (index.wordsIn?.(query, range[0], range[1]) ?? 0) / query.words.length
        },
      }
    },
    page(path: string) {
      const page = findPage(path)
      return page && !page.meta.hidden ? { path: page.path, content: page.markdown } : null
    },
    pages(): PageInfo[] {
      return [...site.pages.values()].sort(byNavigation).map((page) => ({
        path: page.path,
        url: page.url,
        title: page.title,
        description: page.meta.description,
        hidden: page.meta.hidden,
        groups: page.nav?.groups ?? [],
        version: page.version,
        language: page.language,
      }))
    },
  })
  return corpus()
}

/** `https://docs.example.com/a/b?x#y` → `/a/b`; `/` → `index`; a plain path stays. */
function urlPath(raw: string): string {
  const trimmed = raw.trim()
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      return new URL(trimmed).pathname.replace(/^\/$/, 'index')
    } catch {
      return trimmed
    }
  }
  return trimmed === '/' ? 'index' : trimmed
}

/** A filter value matches case-insensitively; a page listed under no version (or language) belongs to all of them. */
function matches(filter: SearchFilter): (section: Section) => boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
  const groups = filter.groups?.filter(Boolean) ?? []
  return (section) => {
    const versions = section.versions ?? (section.version ? [section.version] : [])
    const languages = section.languages ?? (section.language ? [section.language] : [])
    if (filter.version && versions.length > 0 && !versions.some((v) => same(v, filter.version!))) return false
    if (filter.language && languages.length > 0 && !languages.some((l) => same(l, filter.language!))) return false
    if (groups.length > 0 && !section.groups.some((g) => groups.some((wanted) => same(g, wanted)))) return false
    if (filter.tag && !section.tags.some((t) => same(t, filter.tag!))) return false
    return true
  }
}

/** Pages in the same navigation list as the current page are its neighbours. */
function nearness(current: DocPage, site: DocsSite): (section: Section) => number {
  const list = current.nav?.list
  return (section) => {
    if (section.path === current.path) return CURRENT_PAGE_BOOST
    return list !== undefined && site.navigation.entries.get(section.path)?.list === list ? NEIGHBOUR_BOOST : 1
  }
}

function byNavigation(a: DocPage, b: DocPage): number {
  const order = (page: DocPage) => page.nav?.order ?? Number.MAX_SAFE_INTEGER
  return order(a) - order(b) || a.path.localeCompare(b.path)
}
