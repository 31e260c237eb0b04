import { NotTextError } from '../git/errors.ts'
import { packedIndex } from '../search/engines/packed.ts'
import type { SectionIndex } from '../search/engines/types.ts'
import { readFrontmatter } from '../search/frontmatter.ts'
import { contentTerms } from '../search/terms.ts'
import type { Section } from '../search/types.ts'
import type { Workspace } from './types.ts'
import { pacer } from '../event-loop.ts'

const TEXT_FILE = /\.(md|mdx|markdown|json|ya?ml|txt|html?|toml)$/i
const MAX_LINES_PER_FILE = 5

export interface WorkspaceHit {
  path: string
  title: string | null
  /** Occurrences of the query (exact mode) or of its words (ranked mode). */
  matches: number
  lines: Array<{ line: number; text: string }>
}

export interface WorkspaceSearchOptions {
  /** Exact substring search instead of ranked full-text search. */
  exact?: boolean
  ignoreCase?: boolean
  limit?: number
}

/**
 * Search over the text files of a workspace, kept current as the agent writes: ranked by the docs search's own index
 * and words (each file one entry, its frontmatter title as the title), or by exact substring.
 */
export class WorkspaceSearch {
  private texts: Map<string, string> | null = null
  private index: { engine: SectionIndex; paths: string[] } | null = null

  constructor(private readonly workspace: Workspace) {}

  /** Call after a write or delete so the next search sees it. */
  changed(path: string, content: string | null): void {
    if (!this.texts || !TEXT_FILE.test(path)) return
    if (content === null) this.texts.delete(path)
    else this.texts.set(path, content)
    this.index = null
  }

  async search(query: string, options: WorkspaceSearchOptions = {}): Promise<WorkspaceHit[]> {
    const texts = await this.load()
    const limit = options.limit ?? 10
    return options.exact ? this.exactSearch(texts, query, options.ignoreCase ?? false, limit) : this.rankedSearch(texts, query, limit)
  }

  private async load(): Promise<Map<string, string>> {
    if (this.texts) return this.texts
    const texts = new Map<string, string>()
    // An in-memory repository's reads all settle at once: without turns, 100,000 files held the event loop 8 s.
    const pace = pacer()
    for (const path of await this.workspace.listFiles()) {
      if (!TEXT_FILE.test(path)) continue
      await pace()
      // A page saved in another encoding than UTF-8 is left out of the search, not the reason it fails.
      const content = await this.workspace.readFile(path).catch((error: unknown) => {
        if (error instanceof NotTextError) return null
        throw error
      })
      if (content !== null) texts.set(path, content)
    }
    this.texts = texts
    return texts
  }

  private exactSearch(texts: Map<string, string>, query: string, ignoreCase: boolean, limit: number): WorkspaceHit[] {
    const needle = ignoreCase ? query.toLowerCase() : query
    const hits: WorkspaceHit[] = []
    for (const [path, content] of texts) {
      const haystack = ignoreCase ? content.toLowerCase() : content
      const matches = haystack.split(needle).length - 1
      if (matches === 0) continue
      const lines = linesWhere(content, (line) => (ignoreCase ? line.toLowerCase() : line).includes(needle))
      hits.push({ path, title: titleOf(content), matches, lines })
    }
    return hits.sort((a, b) => b.matches - a.matches || a.path.localeCompare(b.path)).slice(0, limit)
  }

  private rankedSearch(texts: Map<string, string>, query: string, limit: number): WorkspaceHit[] {
    if (!this.index) {
      const paths = [...texts.keys()]
      this.index = { engine: packedIndex(paths.map((path) => fileSection(path, texts.get(path)!))), paths }
    }
    const asked = new Set(contentTerms(query))
    const holds = (text: string) => contentTerms(text).filter((term) => asked.has(term))
    return this.index.engine.search(query, { limit }).map(({ section }) => {
      const content = texts.get(section.path) ?? ''
      return {
        path: section.path,
        title: titleOf(content),
        matches: new Set(holds(content)).size,
        lines: linesWhere(content, (line) => holds(line).length > 0),
      }
    })
  }
}

/** A file as one entry of the docs index: the title from its frontmatter (else its path), its whole text. */
function fileSection(path: string, content: string): Section {
  const title = titleOf(content) ?? path
  return { id: path, path, url: path, anchor: '', pageTitle: title, headings: [title], content, groups: [], tags: [] }
}

function linesWhere(content: string, test: (line: string) => boolean): WorkspaceHit['lines'] {
  const out: WorkspaceHit['lines'] = []
  const lines = content.split('\n')
  for (let i = 0; i < lines.length && out.length < MAX_LINES_PER_FILE; i++) {
    if (test(lines[i]!)) out.push({ line: i + 1, text: lines[i]!.slice(0, 300) })
  }
  return out
}

/** The `title:` of a page's frontmatter, if any. */
function titleOf(content: string): string | null {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(content)
  return (front && readFrontmatter(front[1]).title) ?? null
}
