import type { ChatTurn, ContextItem, Source } from '../../shared/assistant.ts'
import type { SearchFilter } from '../../shared/search.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { SourceBlock } from '../models/source-blocks.ts'
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
const CONTEXT_IN_QUERY = 200

export async function retrieve(ctx: DocentContext, project: ProjectConfig, request: RetrievalRequest): Promise<Retrieval> {
  const query = standaloneQuestion(request.turns)
  const selection = (request.context ?? []).map((item) => item.value.slice(0, CONTEXT_IN_QUERY)).join(' ')
  // A context item's page counts as where the reader is when the widget did not say.
  const currentPath = request.currentPath ?? request.context?.find((item) => item.path)?.path
  const corpus = await ctx.search.corpus(project.id).catch((error: unknown) => {
    ctx.log.error('docs could not be loaded', { project: project.id, error: String(error) })
    throw new ApiError(503, 'the docs of this project cannot be loaded right now; try again later')
  })
  const hits = corpus.search(selection ? `${query} ${selection}` : query, { pageSize: request.pageSize, filter: request.filter, currentPath })
  const base = (project.siteUrl ?? ctx.config.publicUrl ?? request.origin).replace(/\/+$/, '')
  const seen = new Set<string>()
  const sources: Source[] = []
  const blocks: SourceBlock[] = []
  for (const hit of hits) {
    const url = base + (hit.section.url.startsWith('/') ? hit.section.url : `/${hit.section.url}`)
    if (seen.has(url)) continue
    seen.add(url)
    const title = titleOf(hit)
    sources.push({ title, path: hit.section.path, url })
    blocks.push({ id: blocks.length + 1, title, url, content: hit.section.content })
  }
  return { query, sources, blocks }
}

/** "Page › Section" for a section under its own heading; the page title for the page's top. */
function titleOf({ section }: SearchHit): string {
  const heading = section.headings.at(-1)
  return heading && heading !== section.pageTitle ? `${section.pageTitle} › ${heading}` : section.pageTitle
}
