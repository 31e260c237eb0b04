import { type NavEntry, type Navigation, pagePathOfFile, readNavigation } from './navigation.ts'
import { fingerprint } from './fingerprint.ts'
import { pageUrl } from './page-url.ts'
import { type ParsedPage, parsePage } from './parse-page.ts'
import { couldNotRead, type LeftOut, PARALLEL_PARSE_MIN_PAGES, parseInWorkers } from './parse-workers.ts'
import { importedFiles, snippetResolver } from './snippets.ts'
import type { DocsProblem, DocsSnapshot } from './sources/types.ts'

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
  /** Files left out or read in part, and why (with those the source skipped): the project's status lists them. */
  problems: DocsProblem[]
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
 * Longer page files are left out: Mintlify's longest page (a changelog) has 220,000 characters, and a 24 MB one held
 * the thread that answers requests for 8 s on every reload, only to be cut into sections no reader would be shown.
 */
export const MAX_PAGE_CHARS = 2_000_000

/**
 * Longer pages are parsed in a worker thread, under a time budget, even on a small site: a page's length does not say
 * how long micromark takes on it (a 60 KB table took 7 s, a 300 KB nested list 10 s, 3 MB of random bytes 15 minutes),
 * and on the thread that answers requests, every project and `/healthz` waited. Shorter pages cost at most about a
 * second of the worst such shapes; the demo's and most of Mintlify's pages are shorter.
 */
export const INLINE_PARSE_MAX_CHARS = 8_000

/**
 * Text decoded from a file that is not UTF-8 text (an image or an archive named `.mdx`, a UTF-16 file without a byte-
 * order mark): NUL bytes, or many bytes that did not decode. It is no page: parsing 3 MB of such bytes took the
 * Markdown parser 15 minutes, on the thread that answers every request.
 */
export function looksBinary(text: string): boolean {
  const head = text.slice(0, 65_536)
  if (head.includes('\u0000')) return true
  const undecoded = head.match(/\uFFFD/g)?.length ?? 0
  return undecoded > 16 && undecoded > head.length / 100
}

/** Why a page file is not parsed at all (see MAX_PAGE_CHARS and looksBinary), or undefined for one that is. */
function unreadable(text: string): string | undefined {
  if (text.length > MAX_PAGE_CHARS) return `left out: longer than ${MAX_PAGE_CHARS.toLocaleString('en')} characters`
  if (looksBinary(text)) return 'left out: not UTF-8 text (an image or an archive named like a page?)'
  return undefined
}

/** What the previous revision parsed, if none of the files its pages import changed. */
function reusableParses(snapshot: DocsSnapshot, previous?: DocsSite): ParseCache | undefined {
  return previous && [...previous.parsed.imports].every(([file, printed]) => print(snapshot.files.get(file)) === printed)
    ? previous.parsed
    : undefined
}

/** Pages parsed elsewhere (worker threads) from this snapshot's texts, by file name, and the files they imported. */
export interface Preparsed {
  /** A page the worker could not read (or not within its time budget) is left out, for the reason given. */
  pages: Map<string, ParsedPage | LeftOut>
  imports: string[]
}

/**
 * `readDocsSite`, with pages parsed in worker threads: all of them when there are many, else the long ones (see
 * INLINE_PARSE_MAX_CHARS). Where worker threads cannot start, the pages are parsed here, and `onWorkersFailed` hears why.
 */
export async function loadDocsSite(
  snapshot: DocsSnapshot,
  previous?: DocsSite,
  options: { workers?: number; pageBudgetMs?: number; onWorkersFailed?: (error: unknown) => void } = {},
): Promise<DocsSite> {
  const reusable = reusableParses(snapshot, previous)
  const toParse: Array<{ file: string; path: string; text: string }> = []
  for (const [file, text] of snapshot.files) {
    const path = pagePathOfFile(file)
    if (isPageFile(file) && !unreadable(text) && reusable?.pages.get(file)?.fingerprint !== fingerprint(text)) {
      toParse.push({ file, path, text })
    }
  }
  const offThread =
    toParse.length >= PARALLEL_PARSE_MIN_PAGES ? toParse : toParse.filter(({ text }) => text.length > INLINE_PARSE_MAX_CHARS)
  if (offThread.length === 0) return readDocsSite(snapshot, previous)
  let parsed: Preparsed | undefined
  try {
    // Each worker gets the files pages import (snippets), to parse pages that import them as this thread would.
    const imported = importedFiles(
      offThread.map(({ file, text }) => [file, text]),
      snapshot.files,
    )
    const { pages, imports } = await parseInWorkers(
      offThread.map(({ file, path, text }) => [file, path, text]),
      imported,
      { workers: options.workers, pageBudgetMs: options.pageBudgetMs },
    )
    parsed = { pages: new Map(offThread.map(({ file }, i) => [file, pages[i]!])), imports }
  } catch (error) {
    options.onWorkersFailed?.(error)
  }
  return readDocsSite(snapshot, previous, parsed)
}

/**
 * Parses every page of a snapshot and places it in the navigation of `docs.json` (or the older `mint.json`). A
 * navigation file that is not valid JSON throws: read without it, the site lost its hidden groups (their pages were
 * searched, answered from and listed in llms.txt) and its name, without a word. The caller keeps the last good docs.
 */
export function readDocsSite(snapshot: DocsSnapshot, previous?: DocsSite, preparsed?: Preparsed): DocsSite {
  const { files } = snapshot
  const reusable = reusableParses(snapshot, previous)
  // Imports of reused pages are unchanged (checked above) and stay watched.
  const cache: ParseCache = { pages: new Map(), imports: new Map(reusable?.imports) }
  const readJson = (path: string): unknown => {
    const file = normalizeFile(path)
    const text = files.get(file)
    return text === undefined ? undefined : parseDocsJson(file, text)
  }
  const config = readJson('docs.json') ?? readJson('mint.json')
  const navigation = readNavigation(config, readJson)
  const snippet = snippetResolver(
    (file) => files.get(file),
    (file, text) => cache.imports.set(file, print(text)),
  )
  for (const file of preparsed?.imports ?? []) cache.imports.set(file, print(files.get(file)))
  let problems: DocsProblem[] = [...(snapshot.skipped ?? [])]
  const pages = new Map<string, DocPage>()
  // Which file each page's path and URL came from: a second file with either is left out (`a.md` beside `a.mdx`,
  // `a/index.mdx` beside `a.mdx`), where both were served and linked under one URL.
  const fileOfPath = new Map<string, string>()
  const fileOfUrl = new Map<string, string>()
  for (const [file, text] of files) {
    if (!isPageFile(file)) continue
    const path = pagePathOfFile(file)
    const why = unreadable(text)
    if (why) {
      problems.push({ file, problem: why })
      continue
    }
    const url = pageUrl(path)
    const twin = fileOfPath.get(path) ?? fileOfUrl.get(url)
    if (twin && !servesBefore(file, twin)) {
      problems.push({ file, problem: `left out: ${twin} is the same page (${url})` })
      continue
    }
    const known = reusable?.pages.get(file)
    const printed = fingerprint(text)
    let parsed = known?.fingerprint === printed ? known.page : preparsed?.pages.get(file)
    if (parsed === undefined) {
      try {
        parsed = parsePage(path, text, { snippet: snippet(file) })
      } catch (error) {
        // One page that cannot be read (nesting deeper than the parser's stack, snippets expanded past MAX_PAGE_BLOCKS)
        // is left out: the rest of the site loads without it, where its error failed every route with a 503.
        parsed = couldNotRead(error)
      }
    }
    if ('leftOut' in parsed) {
      problems.push({ file, problem: parsed.leftOut })
      continue
    }
    // The file served before it (`a.md`, read first) gives way only now: had this one not parsed, neither was served.
    if (twin) {
      const twinPath = pagePathOfFile(twin)
      pages.delete(twinPath)
      cache.pages.delete(twin)
      fileOfPath.delete(twinPath)
      problems = problems.filter((problem) => problem.file !== twin)
      problems.push({ file: twin, problem: `left out: ${file} is the same page (${url})` })
    }
    fileOfPath.set(path, file)
    fileOfUrl.set(url, file)
    problems.push(...readProblems(file, text, parsed))
    cache.pages.set(file, { fingerprint: printed, page: parsed })
    const nav = navigation.entries.get(path)
    const language = languageOf(parsed, nav, navigation.languages)
    pages.set(path, {
      ...parsed,
      url,
      nav,
      ...language,
      version: parsed.meta.version ?? nav?.version,
      versions: parsed.meta.version ? [parsed.meta.version] : (nav?.versions ?? []),
      boost: parsed.meta.boost ?? nav?.boost ?? 1,
      ...visibility(parsed, nav, navigation, language.language),
    })
  }
  return {
    name: navigation.name,
    description: navigation.description,
    navigation,
    pages,
    problems,
    revision: snapshot.revision,
    parsed: cache,
  }
}

/**
 * Which of two files of one page is served, whatever order the source lists them in (a directory's differs from disk
 * to disk): `a.mdx` before `a/index.mdx`, `.mdx` before `.md`, then by name.
 */
function servesBefore(file: string, other: string): boolean {
  const rank = (name: string) => [/(^|\/)index\.mdx?$/i.test(name) ? 1 : 0, /\.md$/i.test(name) ? 1 : 0] as const
  const [a, b] = [rank(file), rank(other)]
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : file < other
}

/** What was read of a page only in part: bytes that are not UTF-8, frontmatter that is not YAML. */
function readProblems(file: string, text: string, page: ParsedPage): DocsProblem[] {
  const problems: DocsProblem[] = []
  const undecoded = text.match(/\uFFFD/g)?.length ?? 0
  if (undecoded > 0) {
    problems.push({ file, problem: `read in part: ${undecoded} byte${undecoded === 1 ? ' is' : 's are'} not UTF-8 (shown as \uFFFD)` })
  }
  if (page.meta.brokenFrontmatter) {
    problems.push({ file, problem: 'frontmatter is not valid YAML: its fields (title, hidden, noindex…) are ignored' })
  }
  return problems
}

/** A navigation file's JSON, or an error that says where it is broken (V8 gives a position, other engines may not). */
function parseDocsJson(file: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const position = /position (\d+)/.exec(message)?.[1]
    const before = position === undefined ? undefined : text.slice(0, Number(position)).split('\n')
    const where = before ? `line ${before.length}, column ${before.at(-1)!.length + 1}: ` : ''
    throw new Error(`${file} is not valid JSON (${where}${message}); this revision of the docs is not served`)
  }
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
