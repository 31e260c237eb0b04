import type { ChatTurn, ContextItem, Source } from '../../shared/assistant.ts'
import type { SearchFilter } from '../../shared/search.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import type { SourceBlock } from '../models/source-blocks.ts'
import { searchSections } from '../search/hybrid.ts'
import { loadCorpus } from '../search/load-corpus.ts'
import type { SearchHit } from '../search/types.ts'
import { standaloneQuestion } from './standalone-question.ts'

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
  /** What was searched: the last question, made standalone when it is a follow-up. */
  query: string
  sources: Source[]
  blocks: SourceBlock[]
}

/** How much of a shared selection joins the search query: enough to name the topic, not enough to drown the question. */
const CONTEXT_IN_QUERY = 300
/** Prompt budget: one long section must not crowd out the others, and 20 sources must fit a small model's context. */
const MAX_SOURCE_CHARS = 4_000
const MAX_SOURCES_CHARS = 40_000
/** Below this, what is left of the budget would hold a fragment, not a source. */
const MIN_SOURCE_CHARS = 500

export async function retrieve(ctx: DocentContext, project: ProjectConfig, request: RetrievalRequest): Promise<Retrieval> {
  const query = standaloneQuestion(request.turns)
  const selection = (request.context ?? [])
    .map((item) => item.value)
    .join(' ')
    .slice(0, CONTEXT_IN_QUERY)
  // A context item's page counts as where the reader is when the widget did not say.
  const currentPath = request.currentPath ?? request.context?.find((item) => item.path)?.path
  const corpus = await loadCorpus(ctx, project, 'an answer')
  const hits = await searchSections(corpus, selection ? `${query} ${selection}` : query, {
    pageSize: request.pageSize,
    filter: request.filter,
    currentPath,
  })
  const base = (project.siteUrl ?? ctx.config.publicUrl ?? request.origin).replace(/\/+$/, '')
  const seen = new Set<string>()
  const sources: Source[] = []
  const blocks: SourceBlock[] = []
  let budget = MAX_SOURCES_CHARS
  for (const hit of hits) {
    if (budget < MIN_SOURCE_CHARS) break
    const url = base + (hit.section.url.startsWith('/') ? hit.section.url : `/${hit.section.url}`)
    const content = clip(hit.section.content, Math.min(MAX_SOURCE_CHARS, budget))
    if (seen.has(url) || !content) continue
    seen.add(url)
    budget -= content.length
    const title = titleOf(hit)
    sources.push({ title, path: hit.section.path, url })
    blocks.push({ id: blocks.length + 1, title, url, content })
  }
  return { query, sources, blocks }
}

/** "Page › Section" for a section under its own heading; the page title for the page's top. */
function titleOf({ section }: SearchHit): string {
  const heading = section.headings.at(-1)
  return heading && heading !== section.pageTitle ? `${section.pageTitle} › ${heading}` : section.pageTitle
}

/** The text cut to `max` characters at the last paragraph or sentence end before it; empty when nothing fits. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = text.slice(0, max)
  const end = Math.max(cut.lastIndexOf('\n\n'), cut.lastIndexOf('. ') + 1)
  return end > max / 2 ? `${cut.slice(0, end).trimEnd()} …` : ''
}
