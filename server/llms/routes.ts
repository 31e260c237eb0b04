import { DocentError } from '../../shared/errors.ts'
import { docsArePublic, type ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { type AppContext, type ResponseDoc, type Route, route } from '../http/route.ts'
import { docsNameOf } from '../search/docs-name.ts'
import { DOCS_UNAVAILABLE, loadCorpus } from '../search/load-corpus.ts'
import { shownMarkdown } from '../site/shown-text.ts'
import { absoluteLinks } from './absolute-links.ts'
import { TextCache } from './cache.ts'
import { docsFilesGuard } from './files-guard.ts'
import { projectLinks, serverBase, siteProject } from './links.ts'
import { llmsFullTxt, llmsTxt } from './llms-txt.ts'

const FILES = { 'llms.txt': llmsTxt, 'llms-full.txt': llmsFullTxt } as const
type FileName = keyof typeof FILES

// Public docs may sit in shared caches; a project's private docs (read with its key) only in the reader's own.
const cacheHeaders = (project: ProjectConfig) => ({ 'cache-control': `${docsArePublic(project) ? 'public' : 'private'}, max-age=60` })

/**
 * `/llms.txt`, `/llms-full.txt` and `<page>.md` for the site Docent serves, and the same per project under
 * `/docs/{domain}/`. Anyone may read a project's public docs (`docs.public`), from any origin; other projects' need the
 * project's assistant key, like search and page.
 */
export function llmsRoutes(ctx: DocentContext): Route[] {
  const cache = new TextCache()

  const corpusOf = (project: ProjectConfig) => loadCorpus(ctx, project, 'llms.txt')
  const projectOfDomain = (c: AppContext): ProjectConfig => {
    const project = ctx.projects.byDomain(c.req.param('domain'))
    if (!project) throw new DocentError('not_found', 'no project with this domain')
    return project
  }
  const siteOnly = (): ProjectConfig => {
    const project = siteProject(ctx.projects)
    if (!project) throw new DocentError('not_found', 'not found')
    return project
  }

  const linksOf = (c: AppContext, project: ProjectConfig, atRoot: boolean) =>
    projectLinks(project, serverBase(ctx.config, c.req.url), { atRoot, isSite: project === siteProject(ctx.projects) })

  const serveFile = async (c: AppContext, project: ProjectConfig, file: FileName, atRoot: boolean) => {
    const corpus = await corpusOf(project)
    const links = linksOf(c, project, atRoot)
    const text = await cache.get(`${project.id}|${file}|${links.llmsBase}`, corpus.revision, () =>
      FILES[file](corpus, links, docsNameOf(corpus, project)),
    )
    const headers = { ...cacheHeaders(project), etag: text.etag }
    if (matchesEtag(c.req.header('if-none-match'), text.etag)) return c.body(null, 304, headers)
    return c.text(text.body, 200, headers)
  }

  const serveMarkdown = async (c: AppContext, project: ProjectConfig, atRoot: boolean): Promise<Response> => {
    // Hono hands the parameter decoded (once), which is how links.ts encodes it (pageHref): decoding it again made
    // the page of `%2e%2e.mdx`, listed at `/%252e%252e.md`, look for `..`.
    const pagePath = c.req.param('pagePath')!.slice(0, -'.md'.length)
    const page = (await corpusOf(project)).page(pagePath === '' || pagePath === 'index' ? 'index' : pagePath)
    if (!page) throw new DocentError('not_found', 'not found')
    return c.body(absoluteLinks(shownMarkdown(page.content), linksOf(c, project, atRoot).resolve), 200, {
      ...cacheHeaders(project),
      'content-type': 'text/markdown; charset=utf-8',
    })
  }

  const text = (description: string): ResponseDoc => ({ description, content: { type: 'text/plain' } })
  const markdown: ResponseDoc = { description: 'the page as markdown, links made absolute', content: { type: 'text/markdown' } }
  const notFound = { description: 'no such page (hidden pages included)' }
  const siteGuard = docsFilesGuard(ctx, { projectOf: siteOnly, publicToAnyOrigin: true })
  const domainGuard = docsFilesGuard(ctx, { projectOf: projectOfDomain, publicToAnyOrigin: true })
  const routes: Route[] = []
  for (const file of Object.keys(FILES) as FileName[]) {
    const what = file === 'llms.txt' ? 'an index of the docs for LLMs (llmstxt.org)' : 'every page of the docs in one text'
    routes.push(
      route({
        method: 'get',
        path: `/${file}`,
        tag: 'llms',
        summary: `The site's ${file}: ${what}`,
        guard: siteGuard,
        responses: { 200: text(file), 304: { description: 'not modified (ETag)' }, 404: notFound, 503: DOCS_UNAVAILABLE },
        handler: (c, { auth }) => serveFile(c, auth.project, file, true),
      }),
      route({
        method: 'get',
        path: `/docs/{domain}/${file}`,
        tag: 'llms',
        summary: `A project's ${file}: ${what}`,
        guard: domainGuard,
        responses: {
          200: text(file),
          304: { description: 'not modified (ETag)' },
          404: { description: 'no project with this domain' },
          503: DOCS_UNAVAILABLE,
        },
        handler: (c, { auth }) => serveFile(c, auth.project, file, false),
      }),
    )
  }
  routes.push(
    route({
      method: 'get',
      path: '/docs/{domain}/{pagePath}.md',
      honoPath: '/docs/:domain/:pagePath{.+\\.md}',
      tag: 'llms',
      summary: "A page of a project's docs as markdown",
      guard: domainGuard,
      params: { pagePath: 'the page path, slashes included (`sdks/go`)' },
      responses: { 200: markdown, 404: notFound, 503: DOCS_UNAVAILABLE },
      handler: (c, { auth }) => serveMarkdown(c, auth.project, false),
    }),
    route({
      method: 'get',
      path: '/{pagePath}.md',
      honoPath: '/:pagePath{.+\\.md}',
      tag: 'llms',
      summary: "A page of the site's docs as markdown (the page URL plus `.md`)",
      guard: siteGuard,
      params: { pagePath: 'the page path, slashes included (`sdks/go`; `index` for the home page)' },
      responses: { 200: markdown, 404: notFound, 503: DOCS_UNAVAILABLE },
      handler: (c, { auth }) => serveMarkdown(c, auth.project, true),
    }),
  )
  return routes
}

/** `If-None-Match` may list several tags, weak ones included (`W/"..."`), or be `*`. */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false
  return header.split(',').some((tag) => {
    const value = tag.trim()
    return value === '*' || value.replace(/^W\//, '') === etag
  })
}
