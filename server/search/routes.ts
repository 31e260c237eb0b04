import { Hono } from 'hono'
import { PageBody, type PageResponse, SearchBody, type SearchResult } from '../../shared/search.ts'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { projectCors } from '../http/cors.ts'
import { assistantGuard } from '../http/guards.ts'
import { readJson } from '../http/validate.ts'
import { searchSections } from './hybrid.ts'
import type { Corpus, SearchHit } from './types.ts'

/** `POST /discovery/v1/search/{domain}` and `POST /discovery/v1/page/{domain}` (assistant key, organization hourly limit). */
export function searchRoutes(ctx: DocentContext): Hono {
  const app = new Hono()
  const guard = assistantGuard(ctx, { countKeyAndIp: false })

  const corpusOf = async (project: ProjectConfig): Promise<Corpus> => {
    try {
      return await ctx.search.corpus(project.id)
    } catch (error) {
      ctx.log.error('docs could not be loaded', { project: project.id, error: String(error) })
      throw new ApiError(503, 'the docs of this project could not be loaded; try again later', { 'retry-after': '30' })
    }
  }

  // Preflights carry no key: CORS answers them alone.
  app.options('/discovery/v1/search/:domain', projectCors(ctx.projects))
  app.post('/discovery/v1/search/:domain', guard, async (c) => {
    const body = await readJson(c, SearchBody)
    const { project } = c.get('auth')
    const corpus = await corpusOf(project)
    const hits = await searchSections(corpus, body.query, {
      pageSize: body.pageSize,
      filter: body.filter,
      scoreThreshold: body.scoreThreshold,
    })
    return c.json(hits.map((hit) => searchResult(hit, project)))
  })

  app.options('/discovery/v1/page/:domain', projectCors(ctx.projects))
  app.post('/discovery/v1/page/:domain', guard, async (c) => {
    const { path } = await readJson(c, PageBody)
    const page = (await corpusOf(c.get('auth').project)).page(path)
    if (!page) throw new ApiError(404, 'page not found')
    return c.json(page satisfies PageResponse)
  })

  return app
}

export function searchResult({ section, score }: SearchHit, project: ProjectConfig): SearchResult {
  return {
    content: section.content,
    path: section.path,
    metadata: {
      title: section.pageTitle,
      ...(section.description ? { description: section.description } : {}),
      url: sectionUrl(section.url, project.siteUrl),
      score: Math.round(score * 1000) / 1000,
    },
  }
}

/** The section's link on the docs site: absolute when the project names its site, else the URL path. */
export function sectionUrl(url: string, siteUrl: string | undefined): string {
  if (!siteUrl) return url
  return siteUrl.replace(/\/+$/, '') + url
}
