import { type PageMeta, readFrontmatter } from '../search/frontmatter.ts'
import { type NavEntry, type Navigation, pagePathOfFile, readNavigation } from '../search/navigation.ts'

/**
 * A docs repository as the maintenance engines read it: the files' texts, the `docs.json` (or `mint.json`)
 * navigation, and each page's frontmatter and language. Pages are parsed (MDX) by each engine as it walks them, one
 * at a time, so a large site never holds every syntax tree at once.
 */
export interface DocsTree {
  /** Every text file of the docs, by path relative to the docs root, `/`-separated. */
  files: ReadonlyMap<string, string>
  /** The site configuration, when `docs.json` or `mint.json` is there and is valid JSON. */
  config?: { file: string; value: Record<string, unknown> }
  navigation: Navigation
  /** Pages (`.md`/`.mdx` files outside `snippets/`) by page path (`guides/setup`), in file order. */
  pages: Map<string, TreePage>
  /** Files imported by pages (`snippets/...`), by file path: their links are checked, their words spelled. */
  snippets: Map<string, string>
}

export interface TreePage {
  /** File path (`guides/setup.mdx`). */
  file: string
  /** Page path (`guides/setup`), as navigation and links name it. */
  path: string
  text: string
  meta: PageMeta
  frontmatter?: Frontmatter
  nav?: NavEntry
  /** Frontmatter, else navigation, else the path prefix (`fr/...`), else the site's first language; undefined when the site names none. */
  language?: string
}

/** Where a page's YAML frontmatter sits in its text. */
export interface Frontmatter {
  yaml: string
  /** Offset of the first character of the YAML (after the opening `---` line). */
  start: number
  /** Offset just past the YAML's last line break: the closing `---` starts here. */
  end: number
  /** The file's line break (`\n` or `\r\n`), for lines an engine adds. */
  eol: string
}

const PAGE_FILE = /\.mdx?$/i
const SNIPPET = /^snippets\//

export function readDocsTree(files: ReadonlyMap<string, string>): DocsTree {
  const readJson = (path: string): unknown => {
    const text = files.get(path.replace(/^\.?\/+/, ''))
    if (text === undefined) return undefined
    try {
      return JSON.parse(text)
    } catch {
      return undefined
    }
  }
  const configFile = ['docs.json', 'mint.json'].find((file) => isRecord(readJson(file)))
  const config = configFile ? { file: configFile, value: readJson(configFile) as Record<string, unknown> } : undefined
  const navigation = readNavigation(config?.value, readJson)
  const pages = new Map<string, TreePage>()
  const snippets = new Map<string, string>()
  for (const [file, text] of files) {
    if (!PAGE_FILE.test(file)) continue
    if (SNIPPET.test(file)) {
      snippets.set(file, text)
      continue
    }
    const path = pagePathOfFile(file)
    if (pages.has(path)) continue
    const frontmatter = findFrontmatter(text)
    const meta = readFrontmatter(frontmatter?.yaml)
    const nav = navigation.entries.get(path)
    pages.set(path, { file, path, text, meta, frontmatter, nav, language: languageOf(path, meta, nav, navigation.languages) })
  }
  return { files, config, navigation, pages, snippets }
}

/** The YAML frontmatter block at the very start of a page, as micromark's frontmatter extension reads it. */
export function findFrontmatter(text: string): Frontmatter | undefined {
  const open = /^---[ \t]*(\r?\n)/.exec(text)
  if (!open) return undefined
  const start = open[0].length
  const close = /^---[ \t]*\r?$/m.exec(text.slice(start))
  if (!close) return undefined
  const end = start + close.index
  return { yaml: text.slice(start, end), start, end, eol: open[1]! }
}

function languageOf(path: string, meta: PageMeta, nav: NavEntry | undefined, siteLanguages: string[]): string | undefined {
  if (meta.language) return meta.language
  if (nav?.language) return nav.language
  const prefix = path.split('/')[0]!
  return siteLanguages.includes(prefix) ? prefix : siteLanguages[0]
}

/** Whether a page is written in English (or the site names no language): the spelling dictionary is English. */
export function isEnglish(page: TreePage): boolean {
  return !page.language || /^en\b/i.test(page.language)
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
