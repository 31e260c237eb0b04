import { type NavEntry, type Navigation, normalizePath, readNavigation } from './navigation.ts'
import { fingerprint } from './fingerprint.ts'
import { pageUrl } from './page-url.ts'
import { type ParsedPage, parsePage } from './parse-page.ts'
import { PARALLEL_PARSE_MIN_PAGES, parseInWorkers } from './parse-workers.ts'
import { importedFiles, snippetResolver } from './snippets.ts'
import type { DocsSnapshot } from './sources/types.ts'

export { resolveImport } from './snippets.ts'

/** One page of the site, parsed, with where the navigation puts it. */
export interface DocPage extends ParsedPage {
  url: string
  /** Undefined for pages outside the navigation (still searchable unless hidden: see `listed`). */
  nav?: NavEntry
  /** Frontmatter, else navigation, else the path prefix (`fr/...`), else the site's first language. */
  language?: string
  languages: string[]
  version?: string
  versions: string[]
  /** Search weight: the page's frontmatter `boost`, else its navigation group's (Mintlify's precedence), 1 by default. */
  boost: number
  /** Hidden from the sidebar: by its frontmatter, or by a hidden tab or group it does not override (`hidden: false`). */
  hidden: boolean
  /**
   * In the navigation, or on a site with none (a folder of pages), or in a language whose navigation file the docs
   * lack. Mintlify leaves pages outside the navigation out of search; Docent keeps them, ranked lower (see corpus.ts).
   */
  listed: boolean
  /**
   * Given to the assistant and listed in `llms.txt`: not hidden (unless `seo.indexing: "all"`, or under a `searchable:
   * true` tab or group), not `noindex`.
   */
  inContext: boolean
  /** Searched: in context, and not `searchable: false`. */
  searchable: boolean
}

export interface DocsSite {
  name?: string
  description?: string
  navigation: Navigation
  pages: Map<string, DocPage>
  revision: string
  /** What each page was parsed from, so the next revision re-parses only the files that changed. */
  parsed: ParseCache
}

/** What the last load parsed, by file: fingerprints of the texts (see fingerprint.ts), not the texts themselves. */
interface ParseCache {
  pages: Map<string, { fingerprint: string; page: ParsedPage }>
  /** The files pages imported (snippets): when one changes, every page is parsed again. Undefined: it was missing. */
  imports: Map<string, string | undefined>
}

const print = (text: string | undefined) => (text === undefined ? undefined : fingerprint(text))

/** Mintlify renders no pages from `snippets/`: files there are only imported by pages. */
const SNIPPETS = /^snippets\//

/** Files that are pages of the site (not snippets), by file name. */
const isPageFile = (file: string) => /\.mdx?$/i.test(file) && !SNIPPETS.test(file)

/**
 * Text decoded from a file that is not UTF-8 text (an image or an archive named `.mdx`, a UTF-16 file): NUL bytes, or
 * many bytes that did not decode. It is no page: parsing 3 MB of such bytes took the Markdown parser 15 minutes, on
 * the thread that answers every request.
 */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, 65_536)
  if (head.includes('\u0000')) return true
  const undecoded = head.match(/\uFFFD/g)?.length ?? 0
  return undecoded > 16 && undecoded > head.length / 100
}

/** What the previous revision parsed, if none of the files its pages import changed. */
function reusableParses(snapshot: DocsSnapshot, previous?: DocsSite): ParseCache | undefined {
  return previous && [...previous.parsed.imports].every(([file, printed]) => print(snapshot.files.get(file)) === printed)
    ? previous.parsed
    : undefined
}

/** Pages parsed elsewhere (worker threads) from this snapshot's texts, by file name, and the files they imported. */
export interface Preparsed {
  /** Null for a page the worker could not read: it is left out, not parsed again here. */
  pages: Map<string, ParsedPage | null>
  imports: string[]
}

/**
 * `readDocsSite`, with the pages parsed in worker threads when there are many (see parse-workers.ts). Where worker
 * threads cannot start, the pages are parsed here, and `onWorkersFailed` hears why.
 */
export async function loadDocsSite(
  snapshot: DocsSnapshot,
  previous?: DocsSite,
  options: { workers?: number; onWorkersFailed?: (error: unknown) => void } = {},
): Promise<DocsSite> {
  const reusable = reusableParses(snapshot, previous)
  const toParse: Array<{ file: string; path: string; text: string }> = []
  for (const [file, text] of snapshot.files) {
    const path = normalizePath(file)
    if (path && isPageFile(file) && !looksBinary(text) && reusable?.pages.get(file)?.fingerprint !== fingerprint(text)) {
      toParse.push({ file, path, text })
    }
  }
  if (toParse.length < PARALLEL_PARSE_MIN_PAGES) return readDocsSite(snapshot, previous)
  let parsed: Preparsed | undefined
  try {
    // Each worker gets the files pages import (snippets), to parse pages that import them as this thread would.
    const imported = importedFiles(
      toParse.map(({ file, text }) => [file, text]),
      snapshot.files,
    )
    const { pages, imports } = await parseInWorkers(
      toParse.map(({ file, path, text }) => [file, path, text]),
      imported,
      options.workers,
    )
    parsed = { pages: new Map(toParse.map(({ file }, i) => [file, pages[i]!])), imports }
  } catch (error) {
    options.onWorkersFailed?.(error)
  }
  return readDocsSite(snapshot, previous, parsed)
}

/** Parses every page of a snapshot and places it in the navigation of `docs.json` (or the older `mint.json`). */
export function readDocsSite(snapshot: DocsSnapshot, previous?: DocsSite, preparsed?: Preparsed): DocsSite {
  const { files } = snapshot
  const reusable = reusableParses(snapshot, previous)
  // Imports of reused pages are unchanged (checked above) and stay watched.
  const cache: ParseCache = { pages: new Map(), imports: new Map(reusable?.imports) }
  const readJson = (path: string): unknown => {
    const text = files.get(normalizeFile(path))
    if (text === undefined) return undefined
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  }
  const config = readJson('docs.json') ?? readJson('mint.json')
  const navigation = readNavigation(config, readJson)
  const snippet = snippetResolver(
    (file) => files.get(file),
    (file, text) => cache.imports.set(file, print(text)),
  )
  for (const file of preparsed?.imports ?? []) cache.imports.set(file, print(files.get(file)))
  const pages = new Map<string, DocPage>()
  for (const [file, text] of files) {
    if (!isPageFile(file) || looksBinary(text)) continue
    const path = normalizePath(file)
    if (!path || pages.has(path)) continue
    const known = reusable?.pages.get(file)
    const printed = fingerprint(text)
    const pre = known?.fingerprint === printed ? known.page : preparsed?.pages.get(file)
    if (pre === null) continue
    let parsed: ParsedPage
    try {
      parsed = pre ?? parsePage(path, text, { snippet: snippet(file) })
    } catch {
      // One page that cannot be read (nesting deeper than the parser's stack, snippets expanded past MAX_PAGE_BLOCKS)
      // is left out: the rest of the site loads without it, where its error failed every route with a 503.
      continue
    }
    cache.pages.set(file, { fingerprint: printed, page: parsed })
    const nav = navigation.entries.get(path)
    const language = languageOf(parsed, nav, navigation.languages)
    pages.set(path, {
      ...parsed,
      url: pageUrl(path),
      nav,
      ...language,
      version: parsed.meta.version ?? nav?.version,
      versions: parsed.meta.version ? [parsed.meta.version] : (nav?.versions ?? []),
      boost: parsed.meta.boost ?? nav?.boost ?? 1,
      ...visibility(parsed, nav, navigation, language.language),
    })
  }
  return { name: navigation.name, description: navigation.description, navigation, pages, revision: snapshot.revision, parsed: cache }
}

/** Where a page shows and is searched, as Mintlify's table of `hidden`, `noindex`, `searchable` and `seo.indexing` says. */
function visibility(
  page: ParsedPage,
  nav: NavEntry | undefined,
  navigation: Navigation,
  language: string | undefined,
): Pick<DocPage, 'hidden' | 'listed' | 'inContext' | 'searchable'> {
  const hidden = page.meta.hidden || (nav?.hidden === true && !page.meta.shown)
  const inContext = (!hidden || navigation.indexAll || (nav?.searchable === true && !page.meta.hidden)) && !page.meta.noindex
  const listed =
    nav !== undefined || navigation.entries.size === 0 || (language !== undefined && navigation.unreadLanguages.includes(language))
  return { hidden, listed, inContext, searchable: inContext && page.meta.searchable }
}

function languageOf(page: ParsedPage, nav: NavEntry | undefined, siteLanguages: string[]): { language?: string; languages: string[] } {
  if (page.meta.language) return { language: page.meta.language, languages: [page.meta.language] }
  if (nav?.language) return { language: nav.language, languages: nav.languages }
  if (siteLanguages.length === 0) return { languages: [] }
  const prefix = page.path.split('/')[0]!
  const language = siteLanguages.includes(prefix) ? prefix : siteLanguages[0]!
  return { language, languages: [language] }
}

/** `./a.json` or `/a.json` → `a.json`. */
function normalizeFile(path: string): string {
  return path.replace(/^\.?\/+/, '')
}
