import MiniSearch from 'minisearch'
import type { Workspace } from './types.ts'

const TEXT_FILE = /\.(md|mdx|markdown|json|ya?ml|txt|html?|toml)$/i
const MAX_LINES_PER_FILE = 5

export interface SearchHit {
  path: string
  title: string | null
  /** Occurrences of the query (exact mode) or matched terms (ranked mode). */
  matches: number
  lines: Array<{ line: number; text: string }>
}

export interface SearchOptions {
  /** Exact substring search instead of ranked full-text search. */
  exact?: boolean
  ignoreCase?: boolean
  limit?: number
}

/** Full-text search over the text files of a workspace, kept current as the agent writes. */
export class WorkspaceSearch {
  private texts: Map<string, string> | null = null
  private index: MiniSearch<{ id: string; title: string; text: string }> | null = null

  constructor(private readonly workspace: Workspace) {}

  /** Call after a write or delete so the next search sees it. */
  changed(path: string, content: string | null): void {
    if (!this.texts || !TEXT_FILE.test(path)) return
    if (content === null) this.texts.delete(path)
    else this.texts.set(path, content)
    this.index = null
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const texts = await this.load()
    const limit = options.limit ?? 10
    return options.exact ? this.exactSearch(texts, query, options.ignoreCase ?? false, limit) : this.rankedSearch(texts, query, limit)
  }

  private async load(): Promise<Map<string, string>> {
    if (this.texts) return this.texts
    const texts = new Map<string, string>()
    for (const path of await this.workspace.listFiles()) {
      if (!TEXT_FILE.test(path)) continue
      const content = await this.workspace.readFile(path)
      if (content !== null) texts.set(path, content)
    }
    this.texts = texts
    return texts
  }

  private exactSearch(texts: Map<string, string>, query: string, ignoreCase: boolean, limit: number): SearchHit[] {
    const needle = ignoreCase ? query.toLowerCase() : query
    const hits: SearchHit[] = []
    for (const [path, content] of texts) {
      const haystack = ignoreCase ? content.toLowerCase() : content
      const matches = haystack.split(needle).length - 1
      if (matches === 0) continue
      const lines = linesWhere(content, (line) => (ignoreCase ? line.toLowerCase() : line).includes(needle))
      hits.push({ path, title: titleOf(content), matches, lines })
    }
    return hits.sort((a, b) => b.matches - a.matches || a.path.localeCompare(b.path)).slice(0, limit)
  }

  private rankedSearch(texts: Map<string, string>, query: string, limit: number): SearchHit[] {
    if (!this.index) {
      this.index = new MiniSearch({ fields: ['title', 'text'], storeFields: ['title'] })
      this.index.addAll([...texts].map(([path, content]) => ({ id: path, title: titleOf(content) ?? path, text: content })))
    }
    return this.index
      .search(query, { prefix: true, fuzzy: 0.2, boost: { title: 2 } })
      .slice(0, limit)
      .map((result) => {
        const content = texts.get(result.id) ?? ''
        const terms = result.terms.map((term) => term.toLowerCase())
        return {
          path: result.id,
          title: titleOf(content),
          matches: result.terms.length,
          lines: linesWhere(content, (line) => terms.some((term) => line.toLowerCase().includes(term))),
        }
      })
  }
}

function linesWhere(content: string, test: (line: string) => boolean): SearchHit['lines'] {
  const out: SearchHit['lines'] = []
  const lines = content.split('\n')
  for (let i = 0; i < lines.length && out.length < MAX_LINES_PER_FILE; i++) {
    if (test(lines[i]!)) out.push({ line: i + 1, text: lines[i]!.slice(0, 300) })
  }
  return out
}

/** The `title:` of a page's frontmatter, if any. */
export function titleOf(content: string): string | null {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(content)
  const title = front ? /^title:\s*(.+)$/m.exec(front[1]!) : null
  return title ? title[1]!.trim().replace(/^(["'])(.*)\1$/, '$2') : null
}
