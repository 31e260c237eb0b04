import type { DocentConfig, ProjectConfig } from '../config.ts'
import type { Projects } from '../projects.ts'
import { pageHref, sectionHref } from '../search/page-url.ts'
import type { PageInfo, Section } from '../search/types.ts'
import { beforeFirst, trimEnd } from '../../shared/trim.ts'

/**
 * The project whose docs site Docent itself serves at `/` (and so `/llms.txt` and `/<page>.md`): the first project
 * without an external `siteUrl`, else the first project.
 */
export function siteProject(projects: Projects): ProjectConfig | undefined {
  return projects.all.find((project) => !project.siteUrl) ?? projects.all[0]
}

/** Host names that only ever reach this machine: a Host header naming one cannot send a reader elsewhere. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Base of the links Docent hands out for itself (source links, llms.txt, MCP results, stored threads): the configured
 * `publicUrl`; else the origin the request came to when its host is trusted (loopback, or listed in `trustedHosts`);
 * else `http://localhost:PORT`. Never an arbitrary `Host` header: anyone can send `Host: evil.example`, and these links
 * are cached, stored and shown to others.
 */
export function serverBase(config: DocentConfig, requestUrl: string): string {
  if (config.publicUrl) return trimEnd(config.publicUrl, '/')
  const url = new URL(requestUrl)
  const trusted = LOOPBACK.has(url.hostname) || config.trustedHosts.some((host) => host === url.host || host === url.hostname)
  return trusted ? url.origin : `http://localhost:${config.port}`
}

/** A link's markdown twin: `/sdks/go` → `/sdks/go.md`, `/sdks/go#x` → `/sdks/go.md` (the anchor apart); `/` → `/index.md`. */
export function markdownPath(href: string): string {
  const path = trimEnd(beforeFirst(href, '?#'), '/')
  return `${path || '/index'}.md`
}

/** Where one project's page links point. */
export interface ProjectLinks {
  /**
   * A section as readers see it (its page's URL percent-encoded, then its anchor: `sectionHref`): on the project's
   * `siteUrl`, on this server for the site project, else (a project with no HTML site) its markdown, so that every
   * URL handed out resolves.
   */
  section(section: Pick<Section, 'url' | 'anchor'>): string
  /** A listed page as readers see it, its URL whole: a `#` or `?` in its file name is part of it, not an anchor or a query. */
  pageOf(page: Pick<PageInfo, 'url'>): string
  /** The markdown of a listed page, its URL whole; always served by this server (`/docs/{domain}/...md`, or `/...md` at the root). */
  markdownOf(page: Pick<PageInfo, 'url'>): string
  /** Where this project's llms.txt files live. */
  llmsBase: string
  /** Where the project's HTML pages live, if anywhere. */
  siteBase?: string
  /**
   * Root-relative links of the docs (`/sdks/go#x`, already percent-encoded as links are) made absolute: the page where
   * there is one, else its markdown.
   */
  resolve(href: string): string
}

export interface LinkOptions {
  /** Links of the root files (`/llms.txt`, `/<page>.md`) rather than of `/docs/{domain}/`. */
  atRoot: boolean
  /** The project is the one whose HTML pages Docent serves at `/`. */
  isSite: boolean
}

export function projectLinks(project: ProjectConfig, base: string, { atRoot, isSite }: LinkOptions): ProjectLinks {
  const llmsBase = atRoot ? base : `${base}/docs/${encodeURIComponent(project.domain)}`
  const siteBase = project.siteUrl ? trimEnd(project.siteUrl, '/') : isSite ? base : undefined
  // Of a link (`href`: percent-encoded, maybe with an anchor): encoding it again made `/a%20b` `/a%2520b.md`.
  const markdownOfHref = (href: string) => llmsBase + markdownPath(href) + anchorOf(href)
  const pageOfHref = (href: string) => (siteBase === undefined ? markdownOfHref(href) : siteBase + href)
  const hrefOf = (pageUrl: string) => pageHref(pageUrl.startsWith('/') ? pageUrl : `/${pageUrl}`)
  return {
    section: (section) => pageOfHref(sectionHref(section)),
    pageOf: (page) => pageOfHref(hrefOf(page.url)),
    markdownOf: (page) => markdownOfHref(hrefOf(page.url)),
    llmsBase,
    siteBase,
    resolve: pageOfHref,
  }
}

const anchorOf = (href: string) => href.slice(beforeFirst(href, '#').length)
