import type { DocentConfig, ProjectConfig } from '../config.ts'
import type { Projects } from '../projects.ts'

/**
 * The project whose docs site Docent itself serves at `/` (and so `/llms.txt` and `/<page>.md`): the first project
 * without an external `siteUrl`, else the first project.
 */
export function siteProject(projects: Projects): ProjectConfig | undefined {
  return projects.all.find((project) => !project.siteUrl) ?? projects.all[0]
}

/** Base of the links Docent serves itself: the configured public URL, else the origin the request came to. */
export function serverBase(config: DocentConfig, requestUrl: string): string {
  return trimSlash(config.publicUrl ?? new URL(requestUrl).origin)
}

/** `/sdks/go` → `/sdks/go.md`; the home page `/` → `/index.md`. */
export function markdownPath(pageUrl: string): string {
  const path = pageUrl.replace(/[?#].*$/, '').replace(/\/+$/, '')
  return `${path || '/index'}.md`
}

/** Where one project's page links point. */
export interface ProjectLinks {
  /** The page as readers see it: on the project's `siteUrl`, else on this server. */
  page(pageUrl: string): string
  /** The page's markdown, always served by this server (`/docs/{domain}/...md`, or `/...md` for the site project). */
  markdown(pageUrl: string): string
  /** Where this project's llms.txt files live. */
  llmsBase: string
  /** Where the project's pages live (its `siteUrl`, else this server). */
  siteBase: string
}

export function projectLinks(project: ProjectConfig, base: string, { atRoot }: { atRoot: boolean }): ProjectLinks {
  const llmsBase = atRoot ? base : `${base}/docs/${encodeURIComponent(project.domain)}`
  const siteBase = trimSlash(project.siteUrl ?? base)
  return {
    page: (pageUrl) => siteBase + (pageUrl.startsWith('/') ? pageUrl : `/${pageUrl}`),
    markdown: (pageUrl) => llmsBase + encodePath(markdownPath(pageUrl)),
    llmsBase,
    siteBase,
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '')
const encodePath = (path: string) => path.split('/').map((part) => encodeURIComponent(part)).join('/')
