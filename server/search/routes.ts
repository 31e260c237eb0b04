import { PageBody, PageResponse, SearchBody, SearchResponse, type SearchResult } from '../../shared/search.ts'
import { DocentError } from '../../shared/errors.ts'
import { callerOf } from '../http/caller.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { docsGuard } from '../http/guards.ts'
import { type Route, route } from '../http/route.ts'
import { trimEnd } from '../../shared/trim.ts'
import { searchSections } from './hybrid.ts'
import { DOCS_UNAVAILABLE, loadCorpus } from './load-corpus.ts'
import { sectionHref } from './page-url.ts'
import type { SearchHit } from './types.ts'

/** `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}` (assistant key unless the docs are public). */
export function searchRoutes(ctx: DocentContext): Route[] {
  const guard = docsGuard(ctx)
  return [
    route({
      method: 'post',
      path: '/discovery/v1/search/{domain}',
      tag: 'search',
      summary: 'Search the docs',
      guard,
      body: SearchBody,
      responses: { 200: { description: 'ranked sections, best first', schema: SearchResponse }, 503: DOCS_UNAVAILABLE },
      handler: async (c, { auth, body }) => {
        const corpus = await loadCorpus(ctx, auth.project, 'search')
        const hits = await searchSections(corpus, body.query, {
          pageSize: body.pageSize,
          filter: body.filter,
          scoreThreshold: body.scoreThreshold,
        })
        if (body.analytics) {
          const topScore = hits[0]?.score ?? null
          ctx.analytics.recorder.search({
            projectId: auth.project.id,
            query: body.query,
            resultCount: hits.length,
            topScore,
            caller: callerOf(c),
            origin: 'search',
            at: ctx.now(),
          })
        }
        return c.json(hits.map((hit) => searchResult(hit, auth.project)))
      },
    }),
    route({
      method: 'post',
      path: '/discovery/v1/page/{domain}',
      tag: 'search',
      summary: 'Get a page as markdown',
      guard,
      body: PageBody,
      responses: {
        200: { description: 'the page', schema: PageResponse },
        404: { description: 'page not found' },
        503: DOCS_UNAVAILABLE,
      },
      handler: async (c, { auth, body }) => {
        const page = (await loadCorpus(ctx, auth.project, 'page')).page(body.path)
        if (!page) throw new DocentError('not_found', 'page not found')
        return c.json(page satisfies PageResponse)
      },
    }),
  ]
}

export function searchResult({ section, score }: SearchHit, project: ProjectConfig): SearchResult {
  return {
    content: section.content,
    path: section.path,
    metadata: {
      title: section.pageTitle,
      ...(section.description ? { description: section.description } : {}),
      url: sectionUrl(sectionHref(section), project.siteUrl),
      score: Math.round(score * 1000) / 1000,
    },
  }
}

/** The section's link (`sectionHref`) on the docs site: absolute when the project names its site, else the URL path. */
export function sectionUrl(url: string, siteUrl: string | undefined): string {
  if (!siteUrl) return url
  return trimEnd(siteUrl, '/') + url
}
