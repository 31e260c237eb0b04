import { type Context, Hono } from 'hono'
import { docsArePublic, type ProjectConfig } from '../config.ts'
import type { DocentContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { quotaRules } from '../http/quotas.ts'
import { rateLimiter } from '../http/rate-limit.ts'
import type { AppEnv } from '../http/route.ts'
import { docsNameOf } from '../search/docs-name.ts'
import { loadCorpus } from '../search/load-corpus.ts'
import { pageHref } from '../search/page-url.ts'
import type { Corpus, PageInfo } from '../search/types.ts'
import { markdownPath } from '../llms/links.ts'
import { pageDocument, type SiteShell } from './layout.ts'
import { oneLine } from '../keys/control-characters.ts'
import { renderedOf, type SiteIndex, siteIndexOf } from './site-index.ts'
import { siteKeyProvider } from './site-key.ts'
import { trimEnd } from '../../shared/trim.ts'
import { decodedOnce } from '../percent-decoding.ts'

// Pages load only the widget from this server; no inline script, so a strict policy costs nothing.
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'; frame-ancestors 'self'; base-uri 'none'; form-action 'self'",
}

/**
 * The demo docs site at `/` (pages rendered from the site project's docs, with navigation and the widget on
 * every page) and the built widget at `/widget/*`. Mounted last: every other route wins.
 */
export function siteRoutes(ctx: DocentContext, apiPrefixes: string[]): Hono<AppEnv> {
  // Paths of the API and of the widget: an unknown one there stays a JSON 404/405, never a docs page.
  const reserved = [...apiPrefixes, '/widget/']
  const app = new Hono<AppEnv>()
  const project = siteProject(ctx)
  const siteKey = project && docsArePublic(project) ? siteKeyProvider(ctx, project) : null

  app.get('/widget/:file{.+}', async (c) => {
    const name = c.req.param('file')
    // Loaded on the first widget request only: the module reads files (a lazily loaded `node:fs`).
    const { serveWidgetFile } = await import('./widget-files.ts')
    const response = await serveWidgetFile(c.req.raw, name)
    if (response) return response
    throw new ApiError(404, name === 'docent.js' ? 'the widget is not built: run `npm run build`' : 'no such widget file')
  })

  // A project whose docs are not public has no public pages either: its docs need its key, which a browser visiting a
  // page does not send.
  if (!project || !siteKey || !docsArePublic(project)) return app

  const corpusOf = (): Promise<Corpus> => loadCorpus(ctx, project, 'the site')
  // A page is a file of the public docs like its `.md` twin, rendered from a text kept per revision: it counts on the
  // same per-IP hour (see quotas.ts), so one client cannot flood the server with pages, and a crawler reading the
  // whole site spends nobody's docs budget.
  const admit = rateLimiter({
    store: ctx.store,
    now: ctx.now,
    rules: () => quotaRules(ctx.config, 'publicFiles', { organization: project.organization, key: null }),
  })

  const shellOf = async (corpus: Corpus, site: SiteIndex, { withWidget }: { withWidget: boolean }): Promise<SiteShell> => {
    const docsName = oneLine(docsNameOf(corpus, project))
    return {
      siteName: docsName,
      description: corpus.description,
      navigation: site.navigation,
      widgetSrc: '/widget/docent.js',
      widget: withWidget
        ? {
            'data-domain': project.domain,
            'data-api-key': await siteKey(),
            'data-starters': JSON.stringify(starterQuestions(docsName, site.firstGuide)),
            'data-labels': JSON.stringify({ title: `Ask ${docsName}` }),
          }
        : null,
    }
  }

  const servePage = async (c: Context, next: () => Promise<void>) => {
    const path = c.req.path
    if (reserved.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix))) return next()
    const limitHeaders = await admit(c)
    const headers = { ...PAGE_HEADERS, ...limitHeaders }
    const corpus = await corpusOf()
    const site = siteIndexOf(corpus)
    // Decoded once from the path as sent: a page's links are its URL encoded once (pageHref).
    const page = site.pageByUrl.get(normalize(new URL(c.req.url).pathname))
    const content = page ? corpus.page(page.path) : null
    const shell = await shellOf(corpus, site, { withWidget: Boolean(page && content) })
    if (!page || !content) {
      // A browser gets a page with the menu; an API client a JSON 404.
      if (!(c.req.header('accept') ?? '').includes('text/html')) return next()
      return c.body(pageDocument(shell, null), 404, headers)
    }
    const index = site.readingIndex.get(page.url) ?? -1
    const html = pageDocument(shell, {
      page,
      rendered: await renderedOf(site, page.path, content.content),
      previous: index > 0 ? site.order[index - 1] : undefined,
      next: index >= 0 ? site.order[index + 1] : undefined,
      markdownUrl: markdownPath(pageHref(page.url)),
    })
    return c.body(html, 200, headers)
  }

  app.get('/', servePage)
  app.get('*', servePage)
  return app
}

/** The project whose docs Docent serves at `/`: the first without an external `siteUrl`, else the first. */
export function siteProject(ctx: Pick<DocentContext, 'projects'>): ProjectConfig | undefined {
  return ctx.projects.all.find((project) => !project.siteUrl) ?? ctx.projects.all[0]
}

function normalize(path: string): string {
  // Undecodable, it is compared as is, and matches no page.
  const trimmed = trimEnd(decodedOnce(path), '/').replace(/\/index$/, '')
  return trimmed === '' ? '/' : trimmed
}

/** Three questions a newcomer might ask first: what it is, how to start, and the first guide's topic. */
function starterQuestions(name: string, guide: PageInfo | undefined): string[] {
  return [`What is ${name}?`, 'How do I get started?', ...(guide ? [`Explain ${guide.title.toLowerCase()}`] : [])]
}
