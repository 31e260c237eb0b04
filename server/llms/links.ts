import type { DocentConfig, ProjectConfig } from '../config.ts'
import type { Projects } from '../projects.ts'
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

/** `/sdks/go` → `/sdks/go.md`; the home page `/` → `/index.md`. */
export function markdownPath(pageUrl: string): string {
  const path = trimEnd(beforeFirst(pageUrl, '?#'), '/')
  return `${path || '/index'}.md`
}

/** Where one project's page links point. */
export interface ProjectLinks {
  /**
   * The page as readers see it: on the project's `siteUrl`, on this server for the site project, else (a project
   * with no HTML site) its markdown, so that every URL handed out resolves.
   */
  page(pageUrl: string): string
  /** The page's markdown, always served by this server (`/docs/{domain}/...md`, or `/...md` at the root). */
  markdown(pageUrl: string): string
  /** Where this project's llms.txt files live. */
  llmsBase: string
  /** Where the project's HTML pages live, if anywhere. */
  siteBase?: string
  /** Root-relative links of the docs (`/sdks/go#x`) made absolute: the page where there is one, else its markdown. */
  resolve(path: string): string
}

export interface LinkOptions {
  /** Links of the root files (`/llms.txt`, `/<page>.md`) rather than of `/docs/{domain}/`. */
  atRoot: boolean
  /** The project is the one whose HTML pages Docent serves at `/`. */
  isSite: boolean
}

export function projectLinks(project: ProjectConfig, base: string, { atRoot, isSite }: LinkOptions): ProjectLinks {
  const llmsBase = atRoot ? base : `${base}/docs/${encodeURIComponent(project.domain)}`
  const markdown = (pageUrl: string) => llmsBase + encodePath(markdownPath(pageUrl)) + anchorOf(pageUrl)
  const siteBase = project.siteUrl ? trimEnd(project.siteUrl, '/') : isSite ? base : undefined
  const page = (pageUrl: string) =>
    siteBase === undefined ? markdown(pageUrl) : siteBase + (pageUrl.startsWith('/') ? pageUrl : `/${pageUrl}`)
  return { page, markdown, llmsBase, siteBase, resolve: page }
}

const encodePath = (path: string) =>
  path
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/')
const anchorOf = (url: string) => url.slice(beforeFirst(url, '#').length)
