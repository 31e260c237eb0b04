import type { ChatTurn, ContextItem, Source } from '../../shared/assistant.ts'
import type { SearchFilter } from '../../shared/search.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { onPage, type SourceBlock } from './prompt-format.ts'
import { OPERATION_NOTE } from '../search/chunk.ts'
import { docsNameOf } from '../search/docs-name.ts'
import { loadCorpus } from '../search/load-corpus.ts'
import { searchQuestion } from '../search/question.ts'
import { sectionHref } from '../search/page-url.ts'
import type { Corpus, ReaderPage, SearchHit, Section } from '../search/types.ts'
import { internalLinkPaths } from '../models/markdown-links.ts'
import { contentTerms, WEAK_WORDS } from '../search/terms.ts'
import { trimEnd } from '../../shared/trim.ts'

export interface RetrievalRequest {
  turns: ChatTurn[]
  pageSize: number
  filter?: SearchFilter | null
  currentPath?: string
  context?: ContextItem[]
  /** Where source links point when the project has no `siteUrl` and no `publicUrl` is set: this server. */
  origin: string
}

export interface Retrieval {
  /** The question as searched: made standalone when it is a follow-up, naming the page when it is about the page. */
  query: string
  sources: Source[]
  blocks: SourceBlock[]
  /** Words of the question the docs never use (see Corpus.unknownWords): for the model, which may decline on them. */
  unknownWords: string[]
  /**
   * What the docs are called, for the prompt: the name they give themselves (`docs.json`), else the project's (a label
   * the docs team chose: "Demo docs"), else the domain, as the site's pages say. The model reads it as the product
   * ("how do I get started with Mintlify?" names no subject in Mintlify's docs).
   */
  docsName: string
}

/** Prompt budget: one long page must not crowd out the others, and 20 sources must fit a small model's context. */
const MAX_SOURCE_CHARS = 4_000
const MAX_SOURCES_CHARS = 40_000
/** Below this, what is left of the budget would hold a fragment, not a source. */
const MIN_SOURCE_CHARS = 500
/** Sections searched for each source asked for: a page's matching sections are one source, as many as fit its budget. */
const SECTIONS_PER_SOURCE = 4
/**
 * Linked pages join the sources (see linkedPages): from the first three sources' lines that hold two of the question's
 * words, at most two. Measured on bench/search-answers: Mintlify tuning 8 25 → 27/30 cite an expected page; tuning 2
 * unchanged (one gained, "automatically merge the pull requests mintlify opens"; one lost its fourth quote, from the
 * page about files, to a sentence beside the linked page); every other set, Mintlify and demo, unchanged. Read by
 * sentence rather than by line, the `--automerge` flag's "See [Configure automerge](…)" held one word and was missed.
 */
const LINKING_SOURCES = 3
const LINE_WORDS = 2
const LINKED_SOURCES = 2

/**
 * Searches the docs for the reader's question (as they mean it: see searchQuestion) and turns the hits into sources,
 * one per page: its matching sections in reading order, under their headings, within the prompt budget.
 */
export async function retrieve(ctx: DocentContext, project: ProjectConfig, request: RetrievalRequest): Promise<Retrieval> {
  const corpus = await loadCorpus(ctx, project, 'an answer')
  const found = await searchQuestion(corpus, { ...request, pageSize: request.pageSize * SECTIONS_PER_SOURCE })
  const base = trimEnd(project.siteUrl ?? ctx.config.publicUrl ?? request.origin, '/')
  const sources: Source[] = []
  const blocks: SourceBlock[] = []
  let budget = MAX_SOURCES_CHARS
  const pages = byPage(found.hits).slice(0, request.pageSize)
  // A page's sections that fit, in reading order, as one source.
  const add = (best: Section, picked: Section[]) => {
    const order = corpus.readerPage?.(best.path)?.sections
    const inOrder = order ? [...picked].sort((a, b) => order.indexOf(a) - order.indexOf(b)) : picked
    const content = sourceContent(best, inOrder, Math.min(MAX_SOURCE_CHARS, budget))
    if (!content) return
    budget -= content.length
    const href = sectionHref(best)
    const url = base + (href.startsWith('/') ? href : `/${href}`)
    sources.push({ title: best.pageTitle, path: best.path, url })
    blocks.push({ id: blocks.length + 1, title: best.pageTitle, url, content })
  }
  for (const hits of pages) {
    if (budget < MIN_SOURCE_CHARS) break
    const room = Math.min(MAX_SOURCE_CHARS, budget)
    const best = hits[0]!.section
    // The page's best sections that fit.
    const picked: Section[] = []
    let size = 0
    for (const { section } of hits) {
      const length = withHeading(section).length + 2
      if (picked.length > 0 && size + length > room) continue
      picked.push(section)
      size += length
    }
    add(best, picked)
  }
  for (const page of linkedPages(corpus, found.query, blocks.slice(0, LINKING_SOURCES), sources)) {
    if (budget < MIN_SOURCE_CHARS) break
    const hits = corpus.search(found.query, { pageSize: SECTIONS_PER_SOURCE, withinPage: page.path }).map((hit) => hit.section)
    const picked = hits.length > 0 ? hits : page.sections.slice(0, 1)
    if (picked[0]) add(picked[0], picked)
  }
  // A question about the page says so, for the model: "how do I use my own?" means little without "Fonts".
  const query = found.leansOn === 'page' && found.page ? onPage(found.query, found.page.title) : found.query
  const docsName = docsNameOf(corpus, project)
  // The question's words are looked for in the languages of the pages found for it: the reader's.
  const languages = [...new Set(pages.flatMap((hits) => hits[0]!.section.languages ?? []))]
  return { query, sources, blocks, unknownWords: corpus.unknownWords?.(found.query, languages) ?? [], docsName }
}

/**
 * A page's source: its sections under their headings, clipped to `room`. An operation's page opens with the operation
 * (the site shows it above the body, from the spec): what a reader asking for "the API to get a page's content" is
 * answered by, even when the sections found are its rate limits.
 */
function sourceContent(best: Section, picked: Section[], room: number): string {
  const operation = best.operation && !picked.some((section) => section.content.includes(best.operation!))
  const opening = operation ? [`${best.pageTitle}\n\n${best.operation}${OPERATION_NOTE}`] : []
  return clip([...opening, ...picked.map(withHeading)].join('\n\n'), room)
}

/**
 * Pages of the docs that the first sources link to from a line about the question, best first, not sources already:
 * an overview's "Or embed the agent into custom apps via the [API](/api/agent/v2/create-agent-job)" for "kick off the
 * docs agent with an api call", or "See [Configure automerge](/guides/configure-automerge)" beside the `--automerge`
 * flag. The search ranks the overview (its words are about the question); the page it points to holds the answer, and
 * joins the sources so the answer can cite it. A line counts when it holds two of the question's words.
 */
function linkedPages(corpus: Corpus, question: string, blocks: SourceBlock[], sources: Source[]): ReaderPage[] {
  const asked = new Set(contentTerms(question).filter((term) => !WEAK_WORDS.has(term)))
  const found: Array<{ page: ReaderPage; shared: number; rank: number }> = []
  blocks.forEach((block, rank) => {
    for (const line of block.content.split('\n')) {
      const targets = internalLinkPaths(line)
      if (targets.length === 0) continue
      const shared = new Set(contentTerms(line).filter((term) => asked.has(term))).size
      if (shared < LINE_WORDS) continue
      for (const target of targets) {
        const page = corpus.readerPage?.(target.startsWith('/') ? target : `/${target}`)
        if (page && !sources.some((source) => source.path === page.path)) found.push({ page, shared, rank })
      }
    }
  })
  found.sort((a, b) => b.shared - a.shared || a.rank - b.rank)
  const pages = new Map(found.map(({ page }) => [page.path, page]))
  return [...pages.values()].slice(0, LINKED_SOURCES)
}

/** Hits grouped by page, pages in the order of their best hit. */
function byPage(hits: SearchHit[]): SearchHit[][] {
  const pages = new Map<string, SearchHit[]>()
  for (const hit of hits) {
    const page = pages.get(hit.section.path)
    if (page) page.push(hit)
    else pages.set(hit.section.path, [hit])
  }
  return [...pages.values()]
}

/** A section under its own heading (the page's top section has none: the source's title is the page's). */
function withHeading(section: Section): string {
  const heading = section.headings.length > 1 ? section.headings.at(-1) : undefined
  if (heading) return `## ${heading}\n\n${section.content}`
  // A page's opening section starts with what the page says it is about (its description), as the page itself shows,
  // unless its first paragraph says it already.
  const description = section.description?.trim()
  return description && !saysAlready(section.content, description) ? `${description}\n\n${section.content}` : section.content
}

/** Share of a description's words a page's first paragraph must hold to say the same. */
const SAME_WORDS = 0.75

/**
 * Whether a section's text holds a description, word for word or in its first paragraph's words ("Lumen Flags is a
 * hosted feature-flag and experimentation service. You wrap…" under "Lumen Flags is a hosted feature-flag and
 * experimentation service for shipping code safely and measuring its impact."): an answer quoting both read it twice.
 */
function saysAlready(content: string, description: string): boolean {
  if (content.includes(description)) return true
  const described = new Set(contentTerms(description))
  const opening = new Set(contentTerms(content.trimStart().split('\n\n', 1)[0]!))
  return described.size > 0 && [...described].filter((term) => opening.has(term)).length >= SAME_WORDS * described.size
}

/** The text cut to `max` characters at the last paragraph or sentence end before it; empty when nothing fits. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const end = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('. ') + 1)
  return end > max / 2 ? `${cut.slice(0, end).trimEnd()} …` : ''
}
