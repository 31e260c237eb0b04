import { pageHref } from '../search/page-url.ts'
import type { PageInfo } from '../search/types.ts'
import { escapeHtml } from './html.ts'
import type { NavGroup } from './navigation.ts'
import type { RenderedPage } from './page-html.ts'
import { siteStyles } from './site-styles.ts'

export interface SiteShell {
  siteName: string
  description?: string
  navigation: NavGroup[]
  /** Attributes of the widget's script tag (`data-domain`, `data-api-key`, …). */
  /** Null on error pages: they are served for any path, and the site key is made only for real pages. */
  widget: Record<string, string> | null
  widgetSrc: string
}

export interface PageView {
  page: PageInfo
  rendered: RenderedPage
  previous?: PageInfo
  next?: PageInfo
  markdownUrl?: string
}

/** One docs page: top bar, sidebar, article, "on this page", and the widget's script tag. */
export function pageDocument(shell: SiteShell, view: PageView | null): string {
  const title = view ? `${view.page.title} · ${shell.siteName}` : `Page not found · ${shell.siteName}`
  const current = view?.page.url
  const widgetTag = shell.widget
    ? `<script src="${escapeHtml(shell.widgetSrc)}"${Object.entries(shell.widget)
        .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
        .join('')} async></script>`
    : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${view?.page.description ? `<meta name="description" content="${escapeHtml(view.page.description)}">` : ''}
<meta name="color-scheme" content="light dark">
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%236d28d9'/%3E%3Cpath d='M16 6l2.4 6.6L25 15l-6.6 2.4L16 24l-2.4-6.6L7 15l6.6-2.4z' fill='white'/%3E%3C/svg%3E">
<style>${siteStyles}</style>
${widgetTag}
</head>
<body>
<a class="skip" href="#content">Skip to content</a>
<header class="topbar">
  <a class="brand" href="/"><span class="mark" aria-hidden="true">${escapeHtml(shell.siteName.slice(0, 1))}</span>${escapeHtml(
    shell.siteName,
  )}</a>
  <button class="ask" type="button" data-docent-open aria-keyshortcuts="Control+I Meta+I">
    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 3l1.8 4.7L18.5 9.5l-4.7 1.8L12 16l-1.8-4.7L5.5 9.5l4.7-1.8z"/></svg>
    <span>Ask AI about ${escapeHtml(shell.siteName)}</span><kbd>Ctrl I</kbd>
  </button>
</header>
<div class="layout">
  <nav class="sidebar" aria-label="Documentation">
    <details><summary>Menu</summary>
    ${shell.navigation.map((group) => navGroup(group, current, 0)).join('\n')}
    </details>
  </nav>
  <main id="content">
    ${view ? article(view) : notFound()}
  </main>
  ${view && view.rendered.toc.length > 1 ? toc(view.rendered.toc) : '<div class="toc"></div>'}
</div>
</body>
</html>
`
}

function navGroup(group: NavGroup, current: string | undefined, depth: number): string {
  const items = group.items
    .map((item) => {
      if ('group' in item) return `<li>${navGroup(item.group, current, depth + 1)}</li>`
      const here = item.page.url === current
      return `<li><a href="${escapeHtml(pageHref(item.page.url))}"${here ? ' aria-current="page"' : ''}>${escapeHtml(item.page.title)}</a></li>`
    })
    .join('')
  const heading = depth === 0 ? `<p class="tab">${escapeHtml(group.title)}</p>` : `<p class="group">${escapeHtml(group.title)}</p>`
  return `<section class="nav-${depth === 0 ? 'tab' : 'group'}">${heading}<ul>${items}</ul></section>`
}

function article(view: PageView): string {
  const { page, rendered, previous, next } = view
  // Pages start with their own `# Title` (and often the description as a paragraph); the header shows both once.
  let body = rendered.html.replace(/^\s*<h1[^>]*>.*?<\/h1>\s*/s, '')
  const lead = /^<p>(.*?)<\/p>\s*/s.exec(body)
  if (lead && page.description && plainText(lead[1]!) === page.description.trim()) body = body.slice(lead[0].length)
  const description = page.description ? `<p class="lead">${escapeHtml(page.description)}</p>` : ''
  const crumbs = page.groups.length
    ? `<p class="crumbs">${page.groups.map(escapeHtml).join(' <span aria-hidden="true">›</span> ')}</p>`
    : ''
  return `<article>
    ${crumbs}
    <h1>${escapeHtml(page.title)}</h1>
    ${description}
    <div class="prose">${body}</div>
    <footer class="pager">
      ${
        previous
          ? `<a class="prev" href="${escapeHtml(pageHref(previous.url))}"><small>Previous</small>${escapeHtml(previous.title)}</a>`
          : '<span></span>'
      }
      ${next ? `<a class="next" href="${escapeHtml(pageHref(next.url))}"><small>Next</small>${escapeHtml(next.title)}</a>` : '<span></span>'}
    </footer>
    ${view.markdownUrl ? `<p class="meta"><a href="${escapeHtml(view.markdownUrl)}">View this page as Markdown</a></p>` : ''}
  </article>`
}

function notFound(): string {
  return `<article><h1>Page not found</h1><p class="lead">There is no page at this address. Pick one from the menu, or ask the assistant.</p></article>`
}

function toc(items: RenderedPage['toc']): string {
  return `<aside class="toc" aria-label="On this page"><p>On this page</p><ul>${items
    .map((item) => `<li><a href="#${escapeHtml(item.id)}">${escapeHtml(item.text)}</a></li>`)
    .join('')}</ul></aside>`
}

/** Text of a rendered HTML fragment: tags dropped, the entities marked and escapeHtml produce decoded. */
function plainText(fragment: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' }
  return (
    fragment
      // A tag does not hold `<`: with `[^>]*`, each `<` of a run with no `>` after it read the rest of the run.
      .replace(/<[^<>]*>/g, '')
      .replace(/&(#\d+|amp|lt|gt|quot);/g, (_, name: string) =>
        name.startsWith('#') ? String.fromCharCode(Number(name.slice(1))) : entities[name]!,
      )
      .trim()
  )
}
