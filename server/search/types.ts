import type { DocsProblem } from './sources/types.ts'
import type { SearchFilter } from '../../shared/search.ts'
import type { QueryContext } from './query.ts'

/** One searchable piece of a page: the text under a heading, with where it sits. */
export interface Section {
  id: string
  /** Page path without extension, relative to the docs root (`sdks/javascript`). */
  path: string
  /** Page URL path as the site serves it, with the section's anchor (`/sdks/javascript#install`). */
  url: string
  anchor: string
  pageTitle: string
  /** Heading trail from the page's top heading down to this section. */
  headings: string[]
  /** Headings of tiny sections merged into this one ("Enable or disable the assistant" under the page's intro). */
  subheadings?: string[]
  content: string
  description?: string
  version?: string
  language?: string
  /** Every version / language the page is listed under (a page such as `index` may be in several); filters match any. */
  versions?: string[]
  languages?: string[]
  groups: string[]
  tags: string[]
  /** The API operation its page documents, as the page shows it (`` `GET /users/{id}` ``). */
  operation?: string
}

export interface SearchHit {
  section: Section
  /** Relative score in 0..1 (the best hit of a query is 1). */
  score: number
}

export interface SearchOptions {
  pageSize: number
  filter?: SearchFilter | null
  scoreThreshold?: number
  /** Sections of this page and its navigation neighbours rank higher. */
  currentPath?: string
  /** Text that says what the question is about without being the question (the reader's page), with its weight. */
  context?: QueryContext[]
  /** Only sections of this page (a path as `currentPath` takes it). */
  withinPage?: string
  /** Pages the conversation is about (the sources of the previous answer): they rank higher. */
  related?: string[]
}

/** The page a reader is on, with what questions asked from it need. */
export interface ReaderPage {
  path: string
  url: string
  title: string
  description?: string
  /** Its searchable sections, in reading order. */
  sections: Section[]
  /** The share (0..1) of a question's own words that occur on the page. */
  covers(question: string): number
}

export interface PageInfo {
  path: string
  url: string
  title: string
  description?: string
  /** Left out of the sidebar (see DocPage.hidden). */
  hidden: boolean
  /** Given to the assistant, listed in `llms.txt` and by the MCP server (see DocPage.inContext). */
  inContext: boolean
  groups: string[]
  version?: string
  language?: string
}

/** A project's loaded docs: pages, navigation and the search index over their sections. */
export interface Corpus {
  /**
   * The name the docs give themselves (`docs.json`'s `name`), when they do. Where Docent names the docs, it uses
   * `docsNameOf`, which falls back to the project's name and domain.
   */
  readonly siteName?: string
  readonly description?: string
  search(query: string, options: SearchOptions): SearchHit[]
  /**
   * BM25 and embedding similarity fused: present only when an embedding model is configured and the sections were
   * embedded. Callers use `searchSections` (search/hybrid.ts), which falls back to `search`.
   */
  searchHybrid?(query: string, options: SearchOptions): Promise<SearchHit[]>
  /** The page a reader is on, found leniently (a URL, a path under a site prefix, a file name); undefined if hidden or unknown. */
  readerPage?(path: string): ReaderPage | undefined
  /**
   * Words of a question that the docs never use in any form ("passport", "sourdough"): a question that names them is
   * about something else, unlike one whose words the docs use on other pages than those found. Given `languages`,
   * only pages in them count (French "car", because, says nothing of a car to a reader of the English pages).
   */
  unknownWords?(question: string, languages?: string[]): string[]
  /** The page's markdown (MDX components reduced to text), or null. Accepts a path with or without `/` and extension. */
  page(path: string): { path: string; content: string } | null
  pages(): PageInfo[]
  /** Changes whenever the docs change (a git commit id or a content hash). */
  readonly revision: string
}

/** How a project's docs loaded: what the console's Project screen shows. */
export interface DocsStatus {
  revision: string | null
  pages: number
  sections: number
  loadedAt: Date | null
  loadMs: number | null
  /** The last time the source was checked for a new revision (load or refresh), whatever the outcome. */
  checkedAt: Date | null
  /** Why the last load or refresh failed; null once one works again. */
  error: string | null
  /** Pages that are not valid MDX, read as plain markdown instead. */
  notMdx: string[]
  /** Files left out or read in part, and why (a link, not UTF-8, too long, the same page as another…); 200 at most. */
  problems: DocsProblem[]
}

/** Corpora of all projects, loaded on first use and kept fresh. */
export interface SearchService {
  /** The project's docs as last loaded; null before the first load finished or failed. */
  status?(projectId: string): DocsStatus | null
  corpus(projectId: string): Promise<Corpus>
  /** Reloads a project's docs (for `docent index` and ref checks); queries keep the old corpus until the new one is ready. */
  refresh(projectId: string): Promise<{ revision: string; changed: boolean }>
  /**
   * Resolves once the project's docs are loaded and, with an embedding model, the first embedding is done or failed
   * (until then BM25 alone answers). For `docent index`, benchmarks and tests.
   */
  embedded?(projectId: string): Promise<void>
  start(): void
  stop(): void
}

/** Turns texts into unit-length vectors, one per text, in order: an embedding model behind it. */
export interface Embedder {
  /** Rejects after `timeoutMs`: a hung model server must not hold up a load or a reader's search. */
  embed(texts: string[], options?: { retries?: number; timeoutMs?: number }): Promise<Float32Array[]>
}
