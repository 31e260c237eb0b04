import type { SearchFilter } from '../../shared/search.ts'
import { chunkPage } from './chunk.ts'
import type { DocPage, DocsSite } from './docs-site.ts'
import { packedIndex } from './engines/packed.ts'
import { asksForAll, entryPoints, withoutWhichAreThere } from './entry-points.ts'
import type { SectionIndex } from './engines/types.ts'
import { candidateCount, type CorpusEmbeddings, fuse, nearestSections } from './hybrid.ts'
import { normalizePath, pagePathOfFile } from './navigation.ts'
import { decodedOnce } from '../percent-decoding.ts'
import {
  asksAboutReaders,
  namesPathOnHost,
  asksThroughApi,
  isWeak,
  parseQuery,
  type QueryContext,
  type QueryWord,
  type SearchQuery,
  withoutPlaceOnPage,
} from './query.ts'
import { contentTerms } from './terms.ts'
import { internalLinkPaths, internalLinks, visibleText } from '../models/markdown-links.ts'
import type { Corpus, PageInfo, ReaderPage, SearchHit, SearchOptions, Section } from './types.ts'

/** Score multipliers for the reader's page and the pages beside it in the navigation. */
const CURRENT_PAGE_BOOST = 1.5
const NEIGHBOUR_BOOST = 1.15
/** Sections ranked by the index (times the page size) before entry pages join them and duplicates leave. */
const CANDIDATES = 2
/**
 * On a site in several languages, pages in another language than the reader's rank lower (not out: a filter does
 * that). Measured on bench/search-quality (Mintlify, en/fr/es/zh): recall@5 0.944 → 0.967 with it.
 */
const OTHER_LANGUAGE = 0.6
/** Filters whose passing sections are kept (one byte a section each). */
const MAX_FILTER_MASKS = 32
/**
 * Pages outside a site's navigation (Mintlify leaves them out of search; Docent keeps them, a reader may ask of one)
 * rank lower: on a real site many are not pages of the docs (a README, an agent's skill file). Measured on
 * bench/search-quality (Mintlify): MRR@10 0.866 → 0.880 held out, 0.785 → 0.792 on the fifth set, nothing lost on any
 * set; 0.6 lost a question.
 */
const UNLISTED_WEIGHT = 0.7
/**
 * A page's `boost` (frontmatter or navigation group) multiplies its sections' scores by this power of it: 2 → 1.15,
 * 3 → 1.25, 10 → 1.58, 0.5 → 0.87, 0.25 → 0.76. Mintlify documents the boost as a multiplier of a relevance that 2-5
 * only prioritizes and that more than 10 overwhelms. Docent's score is BM25+ times the number of query words matched,
 * so the page that answers a question often leads by less than 2×: the boost as written made the "Get started"
 * group's pages (×2 on Mintlify's own docs) first for questions they only touch ("require a password to view the
 * docs" found AI-native documentation). Measured on bench/search-quality, all 446 Mintlify questions (recall@5/MRR@10):
 * the group boost alone as written 0.948/0.827; with the pages' own boosts read (×3 on 74 pages) as written
 * 0.897/0.699, to the power 0.5 0.946/0.830, 0.25 0.951/0.854, 0.2 0.953/0.856, 0.1 0.955/0.853; no boost at all
 * 0.955/0.857. The demo has no boosts.
 */
const BOOST_EXPONENT = 0.2
/** Pages the conversation has been about (the previous answer's sources). */
const RELATED_BOOST = 1.3
/**
 * A question that asks to do something through the API ("export feedback through the API", "an API call to trigger a
 * preview", "the endpoint to list jobs") wants the API reference's operation pages, which rank this much higher. The
 * words alone cannot say it: "API" is on hundreds of pages of a site that has one. Measured on bench/search-quality,
 * all 446 Mintlify questions (recall@5/MRR@10): 1.5 0.953/0.856, 1.75 0.953/0.857, 2 0.955/0.860, 2.5 0.955/0.859;
 * at 2 five questions asked through the API rank their operation page higher ("generate a static export bundle via
 * the api" over the export API's overview) and none lower; the demo unchanged.
 */
const API_BOOST = 2
/**
 * A question of at least PAGE_COVERAGE_WORDS words of its own ranks a section higher by (1 + PAGE_COVERAGE_GAIN × the
 * share of those words its page holds). Measured on bench/search-quality (MRR@10 and recall@5; the sets written by a
 * helper who had not seen the code, the freshest first): tuning 17 0.711 → 0.735 and 0.833 → 0.867, tuning 16 0.819 →
 * 0.852, tuning 15 0.833 → 0.850; all 565 Mintlify questions 0.856 → 0.854 and 0.952 → 0.956; held out 0.925 → 0.918;
 * the demo 0.937 → 0.941. A gain of 2 from four words raised tuning 17 to 0.756 but cost the held-out set a page in
 * its first 5; from every question, it made three off-topic questions answered. On bench/search-answers: page-leaning
 * tuning 5 11 → 12/12, Mintlify questions 514 → 512/565 (held out 37 → 38/40), every off-topic set unchanged.
 */
const PAGE_COVERAGE_WORDS = 3
const PAGE_COVERAGE_GAIN = 0.5
/**
 * An overview's list of pages ("- [Create a help center](/guides/help-center): Build a self-service help center…")
 * describes each page it links to: when the item that holds the most of a question's words holds OVERVIEW_ITEM_WORDS of
 * them, the page it leads to ranks just above the overview (unless the question asks for all of a kind). Measured on
 * bench/search-quality, all 652 Mintlify questions: recall@5 0.957 → 0.959, MRR@10 0.853 → 0.856 (five questions
 * higher, "build a support knowledge base for customers" among them; three a rank or two lower); the demo and every
 * answers set unchanged. It costs 12 µs a search (1.5% of its time) on the Mintlify corpus.
 */
const OVERVIEW_ITEM_WORDS = 2
/** At most this many items may hold the most words: more, and the overview does not say which page. */
const OVERVIEW_LEADING = 2
/** A section is an overview's list when it has this many items that link to pages. */
const OVERVIEW_ITEMS = 3
/** What a question asked through the API without the word ("from a script") adds to its query. */
const IMPLIED_API: QueryContext = { text: 'api', weight: 1, counts: true }
/**
 * What a question about what readers do ("how many people visited the docs last week", "see what people asked the
 * chatbot") adds to its query: the pages that report it say "analytics", the reader does not. Measured on
 * bench/search-quality, all 446 Mintlify questions (recall@5/MRR@10): 0.955/0.860 → 0.960/0.866; six questions of five
 * sets (held out among them) rank an analytics page higher ("what are people asking the assistant": not in the first
 * 10 → 6th, "how many people visited my docs last week": 4th → 1st), none lower; the demo unchanged. At weight 0.5,
 * 0.957/0.862.
 */
const IMPLIED_ANALYTICS: QueryContext = { text: 'analytics', weight: 1, counts: true }
/**
 * What a question that writes a path on a host ("the docs at example.com/docs") adds to its query: it asks about serving
 * them at a subpath, the pages' word, which the reader seldom writes. Measured (2026-12-01) on bench/search-quality, all
 * 1,563 Mintlify questions: recall@5 0.960 → 0.961, MRR@10 0.8491 → 0.8494; of the 17 questions that write one, five
 * rise (not in the first 10 → 4th and 7th, 9th → 3rd, 2nd → 1st twice), three fall a rank or three ("serve my docs at
 * mysite.com/docs" 1st → 2nd, under the Vercel subpath page); bench/search-answers +1 answered citing an expected
 * page, nothing lost, off-topic and the demo unchanged. At weight 0.5 or 0.7, fewer rise.
 */
const IMPLIED_SUBPATH: QueryContext = { text: 'subpath', weight: 1, counts: true }

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
    if (!page.searchable) continue
    for (const section of chunkPage(page)) sections.push(section)
  }
  const index = makeIndex(sections)
  const searchWeight = (page: DocPage) => page.boost ** BOOST_EXPONENT * (page.listed ? 1 : UNLISTED_WEIGHT)
  const maxPageBoost = [...site.pages.values()].reduce((max, page) => Math.max(max, searchWeight(page)), 1)
  const boosted = [...site.pages.values()].some((page) => searchWeight(page) !== 1)
  const byUrl = new Map([...site.pages.values()].map((page) => [page.url, page]))
  const lookup = (path: string) => site.pages.get(path) ?? site.pages.get(`${path}/index`) ?? byUrl.get(`/${path}`)
  /**
   * A page by path, file name or URL. Leniently (for the reader's current page), a site mounted under a prefix
   * (`/docs/...`, `/v1/...`) still finds its pages.
   */
  const findPage = (raw: string, lenient = false): DocPage | undefined => {
    const given = urlPath(raw)
    // A page's own path first: `a#b` is the page of `a#b.mdx`. Then as a link, its anchor and query apart, as written
    // and percent-decoded once (a browser's location says `/a%20b` for the page of `a b.mdx`).
    const named = site.pages.get(pagePathOfFile(given))
    if (named) return named
    const path = normalizePath(given)
    if (!path) return undefined
    for (const asLink of new Set([path, decodedOnce(path)])) {
      const parts = asLink.split('/')
      for (let skip = 0; skip < (lenient ? Math.min(parts.length, 3) : 1); skip++) {
        const page = lookup(parts.slice(skip).join('/'))
        if (page) return page
      }
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
  const entries = entryPoints(site, (path) => pageRange.has(path))
  const defaultLanguage = site.navigation.languages[0]

  // Per section, what boosts read: its page's navigation list and search weight, and its language. Per page, what
  // its translations share (the ranking lists one copy).
  const listOf = new Int32Array(sections.length).fill(-1)
  const pageBoostOf = new Float32Array(sections.length).fill(1)
  const isOperation = new Uint8Array(sections.length)
  const translationOf = new Map<string, string>()
  for (const [path, [from, to]] of pageRange) {
    const page = site.pages.get(path)!
    listOf.fill(page.nav?.list ?? -1, from, to)
    pageBoostOf.fill(searchWeight(page), from, to)
    if (page.meta.endpoint) isOperation.fill(1, from, to)
    translationOf.set(path, translationKey(path, page.language))
  }
  const positionsOf = (paths: Iterable<string>) =>
    [...paths].flatMap((path) => {
      const range = pageRange.get(path)
      return range ? Array.from({ length: range[1] - range[0] }, (_, i) => range[0] + i) : []
    })

  // Which sections pass a filter, worked out once per filter: readers of one site send the same few.
  const masks = new Map<string, Uint8Array>()
  const filterMask = (filter: SearchFilter): Uint8Array => {
    const key = JSON.stringify([filter.version, filter.language, filter.groups, filter.tag])
    let mask = masks.get(key)
    if (!mask) {
      const test = matches(filter)
      mask = Uint8Array.from(sections, (section) => (test(section) ? 1 : 0))
      if (masks.size >= MAX_FILTER_MASKS) masks.delete(masks.keys().next().value!)
      masks.set(key, mask)
    }
    return mask
  }

  /** The language a reader reads (their page's, else the site's first) on a site in several; undefined on one in one. */
  const readerLanguage = (current: DocPage | undefined) =>
    site.navigation.languages.length > 1 ? (current?.language ?? defaultLanguage) : undefined

  const anyOperation = isOperation.includes(1)
  /**
   * The filter and the boost (reader's page, its neighbours, page boosts, language, operation pages for a question
   * asked through the API) a query and its options ask for.
   */
  const rankingOf = (text: string, options: SearchOptions) => {
    const current = options.currentPath ? findPage(options.currentPath, true) : undefined
    const [currentFrom, currentTo] = (current && pageRange.get(current.path)) ?? [-1, -1]
    const list = current?.nav?.list ?? -2
    const language = options.filter?.language ? undefined : readerLanguage(current)
    const foreign = language ? (section: Section) => (inLanguage(section, language) ? 1 : OTHER_LANGUAGE) : undefined
    const related = options.related?.length ? new Set(options.related) : undefined
    const within = options.withinPage ? (pageRange.get(findPage(options.withinPage, true)?.path ?? '') ?? [0, 0]) : undefined
    const passing = options.filter ? filterMask(options.filter) : undefined
    const filters = [
      passing ? (_: Section, i: number) => passing[i] === 1 : undefined,
      within ? (_: Section, i: number) => i >= within[0] && i < within[1] : undefined,
    ].filter((f) => f !== undefined)
    const api = anyOperation && asksThroughApi(text) ? API_BOOST : 1
    const near = (i: number) => (i >= currentFrom && i < currentTo ? CURRENT_PAGE_BOOST : listOf[i] === list ? NEIGHBOUR_BOOST : 1)
    // The reader's page and the conversation's pages rank highest: the engine scores them first, then prunes the rest
    // with the neighbours' smaller boost as the bound.
    const favoured = [...new Set([...(current ? [current.path] : []), ...(related ?? [])])]
    return {
      filter: filters.length === 0 ? undefined : (section: Section, i: number) => filters.every((f) => f(section, i)),
      foreign,
      boost:
        current || boosted || foreign || related || api > 1
          ? (section: Section, i: number) =>
              near(i) *
              pageBoostOf[i]! *
              (foreign?.(section) ?? 1) *
              (related?.has(section.path) ? RELATED_BOOST : 1) *
              (isOperation[i] ? api : 1)
          : undefined,
      maxBoost: (current ? CURRENT_PAGE_BOOST : 1) * maxPageBoost * (related ? RELATED_BOOST : 1) * api,
      favoured: favoured.length > 0 ? positionsOf(favoured).sort((a, b) => a - b) : undefined,
      restBoost: (current ? NEIGHBOUR_BOOST : 1) * maxPageBoost * api,
    }
  }
  /**
   * The query of a question and its context. Asked through the API without naming it ("from a script",
   * "programmatically"), it also asks for the word every operation page holds. "In a page" says where, not what (see
   * withoutPlaceOnPage).
   */
  const queryOf = (text: string, options: SearchOptions) => {
    const implied = [
      ...(anyOperation && asksThroughApi(text) && !/\bapis?\b/i.test(text) ? [IMPLIED_API] : []),
      ...(asksAboutReaders(text) && !/\banalytics?\b/i.test(text) ? [IMPLIED_ANALYTICS] : []),
      ...(namesPathOnHost(text) && !/\bsub-?paths?\b/i.test(text) ? [IMPLIED_SUBPATH] : []),
    ]
    const { question, place } = withoutPlaceOnPage(withoutWhichAreThere(text))
    return parseQuery(question, [...(options.context ?? []), ...implied, ...place])
  }
  const search = (text: string, options: SearchOptions): SearchHit[] => {
    const query = queryOf(text, options)
    const ranking = rankingOf(text, options)
    const raw = index.search(query, { limit: Math.max(10, CANDIDATES * options.pageSize), ...ranking })
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
    // A question of several words of its own ("Our S3 bucket is still empty a day after we added it as a destination…")
    // is answered by a page that speaks of all of them, though each section holds only some: each candidate gains by
    // the share of those words its page holds anywhere (in the reader's language). See PAGE_COVERAGE_GAIN.
    const subjectWords = query.words.filter(namesSubject).length
    if (index.wordsInRanges && subjectWords >= PAGE_COVERAGE_WORDS) {
      const wordsIn = index.wordsInRanges(query, namesSubject)
      const covered = new Map<string, number>()
      for (const hit of raw) {
        if ((ranking.foreign?.(hit.section) ?? 1) < 1) continue
        let share = covered.get(hit.section.path)
        if (share === undefined) {
          const [from, to] = pageRange.get(hit.section.path)!
          share = wordsIn(from, to) / subjectWords
          covered.set(hit.section.path, share)
        }
        hit.score *= 1 + PAGE_COVERAGE_GAIN * share
      }
    }
    const scored = raw.sort((a, b) => b.score - a.score)
    if (!asksForAll(text)) leadToListedPages(scored, query)
    const best = scored[0]?.score ?? 1
    const third = scored[2]?.score ?? best
    const wanted = entries.of(text, query)
    wanted.forEach((entry, i) => {
      const at = pageRange.get(entry.path)![0]
      const section = sections[at]!
      if ((ranking.filter && !ranking.filter(section, at)) || (ranking.foreign?.(section) ?? 1) < 1) return
      const known = scored.filter((hit) => hit.section.path === entry.path)
      // Asked for by name and nothing else, the entry pages lead, in the order they were found; asked for beside a
      // subject, an entry page is at least third.
      const floor = (entry.strong ? best : third) * (1 + 0.01 * (wanted.length - i))
      // Asked for by name, a page is read from its opening, where it says what it is for ("what is Lumen Flags?" is
      // answered by "Lumen Flags is a hosted feature-flag service", not by the cards its questions' words also match).
      if (known.length === 0 || (entry.strong && !known.some((hit) => hit.section === section))) scored.push({ section, score: floor })
      for (const hit of known) hit.score = Math.max(hit.score, floor)
    })
    scored.sort((a, b) => b.score - a.score)
    const seen = new Set<string>()
    // A page and its translations are one answer: the copy that ranks best is listed (the reader's language ranks
    // first, and a question asked in another language ranks that language's copy first).
    const copyOf = new Map<string, string>()
    const hits: Array<{ section: Section; score: number }> = []
    for (const hit of scored) {
      const page = translationOf.get(hit.section.path)!
      if (seen.has(hit.section.content) || (copyOf.get(page) ?? hit.section.path) !== hit.section.path) continue
      seen.add(hit.section.content)
      copyOf.set(page, hit.section.path)
      hits.push(hit)
      if (hits.length === options.pageSize) break
    }
    const top = hits[0]?.score ?? 0
    const threshold = options.scoreThreshold ?? 0
    return hits.map(({ section, score }) => ({ section, score: top > 0 ? score / top : 0 })).filter((hit) => hit.score >= threshold)
  }
  /**
   * The page an overview's item leads to ranks just above the overview, when that item holds more of the question's
   * words than any other (see OVERVIEW_ITEM_WORDS).
   */
  const leadToListedPages = (scored: Array<{ section: Section; score: number }>, query: SearchQuery) => {
    const overviews = scored.slice(0, OVERVIEW_CANDIDATES).filter((hit) => overviewItems(hit.section) !== undefined)
    if (overviews.length === 0) return
    const words = query.words.filter(namesSubject).map((word) => new Set(word.terms.flatMap((term) => contentTerms(term.word))))
    if (words.length < OVERVIEW_ITEM_WORDS) return
    for (const hit of overviews) {
      const items = overviewItems(hit.section)!
      const held = items.map((item) => words.filter((forms) => [...forms].some((form) => item.stems.has(form))).length)
      const most = Math.max(...held)
      const leading = items.filter((_, i) => held[i] === most)
      if (most < OVERVIEW_ITEM_WORDS || leading.length > OVERVIEW_LEADING) continue
      for (const item of leading) {
        const target = findPage(item.href)?.path
        const range = target === undefined || target === hit.section.path ? undefined : pageRange.get(target)
        if (!range) continue
        const lifted = hit.score * 1.01
        const known = scored.filter((other) => other.section.path === target)
        if (known.length === 0) scored.push({ section: sections[range[0]]!, score: lifted })
        for (const other of known) other.score = Math.max(other.score, lifted)
      }
    }
    scored.sort((a, b) => b.score - a.score)
  }
  /** Each section's position, for fusing hybrid rankings (made on the first hybrid search). */
  let position: Map<Section, number> | undefined
  /** BM25 and vector rankings of the sections that pass the filter, fused; the boost applies once, after fusion. */
  const searchHybrid = async (embeddings: CorpusEmbeddings, text: string, options: SearchOptions): Promise<SearchHit[]> => {
    const ranking = rankingOf(text, options)
    const { filter } = ranking
    const limit = candidateCount(options.pageSize)
    let nearest: Section[]
    try {
      const queryVector = await embeddings.embedQuery(text)
      nearest = nearestSections(queryVector, embeddings, (i) => !filter || filter(sections[i]!, i), limit).map((i) => sections[i]!)
    } catch (error) {
      embeddings.onQueryError?.(error)
      return search(text, options)
    }
    const query = queryOf(text, options)
    const bm25 = index.search(query, { limit, filter }).map((hit) => hit.section)
    const { boost } = ranking
    position ??= new Map(sections.map((section, i) => [section, i]))
    return rerank(
      text,
      query,
      fuse([bm25, nearest], boost ? (section) => boost(section, position!.get(section)!) : () => 1),
      ranking,
      options,
    )
  }
  const corpus = (embeddings?: CorpusEmbeddings): BuiltCorpus => ({
    siteName: site.name,
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
      if (!page || !range) return undefined
      return {
        path: page.path,
        url: page.url,
        title: page.title,
        description: page.meta.description,
        sections: sections.slice(range[0], range[1]),
        covers: (question) => {
          const query = subjectQuery(question)
          return query.words.length === 0 ? 0 : (index.wordsInRanges?.(query)(range[0], range[1]) ?? 0) / query.words.length
        },
      }
    },
    ...(index.unknownWords
      ? {
          unknownWords: (question: string, languages?: string[]) =>
            index.unknownWords!(
              subjectQuery(question),
              languages?.length ? (i) => languages.some((language) => inLanguage(sections[i]!, language)) : undefined,
            ),
        }
      : {}),
    page(path: string) {
      const page = findPage(path)
      // A hidden page is not served, unless `seo.indexing: "all"` gives it to search and the assistant.
      return page && (!page.meta.hidden || site.navigation.indexAll) ? { path: page.path, content: page.markdown } : null
    },
    pages(): PageInfo[] {
      return [...site.pages.values()].sort(byNavigation).map((page) => ({
        path: page.path,
        url: page.url,
        title: page.title,
        description: page.meta.description,
        hidden: page.hidden,
        inContext: page.inContext,
        groups: page.nav?.groups ?? [],
        version: page.version,
        language: page.language,
      }))
    },
  })
  return corpus()
}

/** What a page's translations share: its path but for the language prefix (`fr/quickstart` and `quickstart`). */
export function translationKey(path: string, language: string | undefined): string {
  const prefix = `${language?.toLowerCase()}/`
  return language && path.toLowerCase().startsWith(prefix) ? path.slice(prefix.length) : path
}

/** A section in no language (or in several) is read in each of them. */
function inLanguage(section: Section, language: string): boolean {
  return !section.languages?.length || section.languages.includes(language)
}

/** Whether a query word names a subject: a word of the question, not context, and not an everyday word ("look", "before"). */
const namesSubject = (word: QueryWord) => word.counts && !isWeak(word)

/** The candidates an overview's items are read in (see leadToListedPages). */
const OVERVIEW_CANDIDATES = 5
/** A list item's bullet, before the link that opens it. */
const BULLET = /^[-*]\s+/
const overviewCache = new WeakMap<Section, Array<{ href: string; stems: Set<string> }> | null>()

/**
 * A section's items that link to pages of the docs ("- [Title](/path): description", or a card's "[Title](/path):
 * description", see page-blocks), when it lists OVERVIEW_ITEMS or more: a line that opens with such a link.
 */
function overviewItems(section: Section): Array<{ href: string; stems: Set<string> }> | undefined {
  let items = overviewCache.get(section)
  if (items === undefined) {
    items = section.content.split('\n').flatMap((line) => {
      const item = line.trim().replace(BULLET, '')
      const [link] = internalLinks(item)
      const href = link && item.startsWith(link) ? internalLinkPaths(link)[0] : undefined
      return href?.startsWith('/') ? [{ href, stems: new Set(contentTerms(visibleText(item))) }] : []
    })
    if (items.length < OVERVIEW_ITEMS) items = null
    overviewCache.set(section, items)
  }
  return items ?? undefined
}

/** A question's words that name a subject: everyday words say nothing of a page either way. */
function subjectQuery(question: string): SearchQuery {
  return { words: parseQuery(question).words.filter(namesSubject) }
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

function byNavigation(a: DocPage, b: DocPage): number {
  const order = (page: DocPage) => page.nav?.order ?? Number.MAX_SAFE_INTEGER
  return order(a) - order(b) || a.path.localeCompare(b.path)
}
