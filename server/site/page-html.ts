import GithubSlugger from 'github-slugger'
import { Marked, type Tokens } from 'marked'
import { escapeHtml } from './html.ts'
import { safeUrl } from './safe-url.ts'

export interface RenderedPage {
  html: string
  /** The page's second-level headings, for the "On this page" list. */
  toc: Array<{ id: string; text: string }>
}

/**
 * A docs page's markdown as HTML. Heading ids follow GitHub's slugs, as the search index's source anchors do,
 * so a source link lands on its section. Raw HTML in a page is shown as text: the site renders docs from a
 * repository, and a page is not a place to run script.
 */
export function renderPageHtml(markdown: string): RenderedPage {
  const slugger = new GithubSlugger()
  const toc: RenderedPage['toc'] = []
  const marked = new Marked({
    gfm: true,
    renderer: {
      html: ({ text }: Tokens.HTML | Tokens.Tag) => escapeHtml(text),
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { tokens, depth, text }: Tokens.Heading) {
        const plain = text.replace(/[`*_]/g, '')
        const id = slugger.slug(plain)
        if (depth === 2) toc.push({ id, text: plain })
        return `<h${depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true" tabindex="-1">#</a>${this.parser.parseInline(
          tokens,
        )}</h${depth}>\n`
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link) {
        const inner = this.parser.parseInline(tokens)
        // Links come from a repository's pages: only web and mail links, never a script or data URL, however spelled.
        const safe = safeUrl(href)
        if (!safe) return inner
        return `<a href="${escapeHtml(safe.href)}"${title ? ` title="${escapeHtml(title)}"` : ''}${
          safe.external ? ' rel="noopener"' : ''
        }>${inner}</a>`
      },
      image: ({ href, text }: Tokens.Image) => {
        const safe = safeUrl(href, ['http:', 'https:'])
        return safe ? `<img src="${escapeHtml(safe.href)}" alt="${escapeHtml(text)}" loading="lazy">` : escapeHtml(text)
      },
    },
  })
  const html = marked.parse(markdown, { async: false })
  return { html, toc }
}
