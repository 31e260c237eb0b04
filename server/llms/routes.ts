import { type Context, Hono } from 'hono'
import type { ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { absoluteLinks } from './absolute-links.ts'
import { TextCache } from './cache.ts'
import { projectLinks, serverBase, siteProject } from './links.ts'
import { loadCorpus } from './load-corpus.ts'
import { llmsFullTxt, llmsTxt } from './llms-txt.ts'

const FILES = { 'llms.txt': llmsTxt, 'llms-full.txt': llmsFullTxt } as const
type FileName = keyof typeof FILES

// Docs are public: any site (or a browser-based AI tool) may fetch them.
const PUBLIC_HEADERS = { 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=60' }

/**
 * `/llms.txt`, `/llms-full.txt` and `<page>.md` for the site Docent serves, and the same per project under
 * `/docs/{domain}/`. Mounted before the site routes, so a `.md` path that is not a page falls through to them.
 */
export function llmsRoutes(ctx: DocentContext): Hono {
  const app = new Hono()
  const cache = new TextCache()

  const corpusOf = (project: ProjectConfig) => loadCorpus(ctx, project, 'llms.txt')
  const projectOfDomain = (c: Context): ProjectConfig => {
    const project = ctx.projects.byDomain(c.req.param('domain'))
    if (!project) throw new ApiError(404, 'no project with this domain')
    return project
  }
  const siteOnly = (): ProjectConfig => {
    const project = siteProject(ctx.projects)
    if (!project) throw new ApiError(404, 'not found')
    return project
  }

  const linksOf = (c: Context, project: ProjectConfig, atRoot: boolean) =>
    projectLinks(project, serverBase(ctx.config, c.req.url), { atRoot, isSite: project === siteProject(ctx.projects) })

  const serveFile = async (c: Context, project: ProjectConfig, file: FileName, atRoot: boolean) => {
    const corpus = await corpusOf(project)
    const links = linksOf(c, project, atRoot)
    const text = await cache.get(`${project.id}|${file}|${links.llmsBase}`, corpus.revision, () => FILES[file](corpus, links))
    const headers = { ...PUBLIC_HEADERS, etag: text.etag }
    if (matchesEtag(c.req.header('if-none-match'), text.etag)) return c.body(null, 304, headers)
    return c.text(text.body, 200, headers)
  }

  const serveMarkdown = async (c: Context, project: ProjectConfig, urlPath: string, atRoot: boolean): Promise<Response | undefined> => {
    const pagePath = decodePath(urlPath.slice(0, -'.md'.length))
    if (pagePath === undefined) return undefined
    const page = (await corpusOf(project)).page(pagePath === '' || pagePath === '/' ? 'index' : pagePath)
    if (!page) return undefined
    return c.body(absoluteLinks(page.content, linksOf(c, project, atRoot).resolve), 200, {
      ...PUBLIC_HEADERS,
      'content-type': 'text/markdown; charset=utf-8',
    })
  }

  for (const file of Object.keys(FILES) as FileName[]) {
    app.get(`/${file}`, (c) => serveFile(c, siteOnly(), file, true))
    app.get(`/docs/:domain/${file}`, (c) => serveFile(c, projectOfDomain(c), file, false))
  }
  app.get('/docs/:domain/*', async (c, next) => {
    const project = ctx.projects.byDomain(c.req.param('domain'))
    const rest = c.req.path.slice(`/docs/${c.req.param('domain')}`.length)
    const response = project && rest.endsWith('.md') ? await serveMarkdown(c, project, rest, false) : undefined
    if (response) return response
    await next()
  })
  app.get('*', async (c, next) => {
    const project = c.req.path.endsWith('.md') ? siteProject(ctx.projects) : undefined
    const response = project ? await serveMarkdown(c, project, c.req.path, true) : undefined
    if (response) return response
    await next()
  })
  return app
}

/** The page path of a request path, or undefined for undecodable input (then it is simply not a page). */
function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path)
  } catch {
    return undefined
  }
}

/** `If-None-Match` may list several tags, weak ones included (`W/"..."`), or be `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value.replace(/^W\//, '') === etag
  })
}
