import GithubSlugger from 'github-slugger'
import { Lexer, Marked, type Token, type Tokens, type TokensList } from 'marked'
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
  if (markdown.length > MAX_RENDERED_CHARS) return plainPage(markdown)
  try {
    return renderMarkdown(markdown)
  } catch (error) {
    // The lexer recurses once per level of nesting (quotes in quotes, emphasis in emphasis): a page nested past the
    // stack is shown as text rather than failing its route.
    if (error instanceof RangeError) return plainPage(markdown)
    throw error
  }
}

/**
 * Inline markup (emphasis, links, code spans) is read in time that grows with a run's delimiters times its length:
 * 80 KB of `_a` took 15 s. The most any real run we know holds is 78 (a list of language codes in backticks); a run
 * with more is no prose anyone formats, so it is shown as text. That bounds a page's cost by its length times this.
 */
export const MAX_INLINE_DELIMITERS = 256
const INLINE_DELIMITER = /[*_~`[\]<>!&\\]/g

/** Past this a page is shown as text: the largest real page we know (a changelog) is about 230 KB. */
export const MAX_RENDERED_CHARS = 512_000

/**
 * Quotes, lists, emphasis and links nest this deep at most; deeper, the content is shown as text. Each level reads its
 * content again (a page of lists 1,000 deep took 4 s); real pages nest a few levels.
 */
export const MAX_DEPTH = 16

/** Marked's lexer, with the work of a run of inline markup and of nesting bounded (see above). */
class BoundedLexer<P = string, R = string> extends Lexer<P, R> {
  #depth = 0

  override blockTokens(src: string, tokens?: Token[], lastParagraphClipped?: boolean): Token[]
  override blockTokens(src: string, tokens?: TokensList, lastParagraphClipped?: boolean): TokensList
  override blockTokens(src: string, tokens: Token[] = [], lastParagraphClipped?: boolean): Token[] {
    if (this.#depth >= MAX_DEPTH) {
      tokens.push({ type: 'paragraph', raw: src, text: src, tokens: [{ type: 'text', raw: src, text: src }] })
      return tokens
    }
    this.#depth++
    try {
      return super.blockTokens(src, tokens, lastParagraphClipped)
    } finally {
      this.#depth--
    }
  }

  override inlineTokens(src: string, tokens: Token[] = []): Token[] {
    if (this.#depth >= MAX_DEPTH || delimitersIn(src) > MAX_INLINE_DELIMITERS) {
      tokens.push({ type: 'text', raw: src, text: src })
      return tokens
    }
    this.#depth++
    try {
      return super.inlineTokens(src, tokens)
    } finally {
      this.#depth--
    }
  }
}

function delimitersIn(src: string): number {
  let count = 0
  INLINE_DELIMITER.lastIndex = 0
  while (INLINE_DELIMITER.exec(src) && ++count <= MAX_INLINE_DELIMITERS) {}
  return count
}

const lexBounded: typeof Lexer.lex = (src, options) => new BoundedLexer(options).lex(src)

/** A page as escaped paragraphs, for pages the renderer cannot take. */
function plainPage(markdown: string): RenderedPage {
  const paragraphs = markdown.split(/\n[ \t]*\n/).filter((text) => text.trim() !== '')
  return { html: paragraphs.map((text) => `<p class="plain">${escapeHtml(text)}</p>`).join('\n'), toc: [] }
}

function renderMarkdown(markdown: string): RenderedPage {
  const slugger = new GithubSlugger()
  const toc: RenderedPage['toc'] = []
  const marked = new Marked({
    gfm: true,
    hooks: { provideLexer: () => lexBounded },
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
