import { html, nothing, type TemplateResult } from 'lit'
import { Lexer, type Token, type Tokens } from 'marked'
import { highlight } from './highlight.ts'
import { type SafeLink, safeLink } from './links.ts'

/**
 * Model output as markdown, rendered to Lit templates from marked's tokens. Nothing is ever parsed as HTML:
 * raw HTML in the answer becomes visible text, images become links, and links are live only as `safeLink` allows
 * (http(s) and mailto, resolved as the browser would). Lit puts every value in as text, so the output is inert by
 * construction (no sanitizer needed).
 */
export interface MarkdownOptions {
  copyLabel: string
  onCopy: (text: string, button: HTMLButtonElement) => void
  /** The answer's n-th source (1-based), so a citation like `[2]` becomes a link to it. */
  source?: (n: number) => { href: string; title: string; label: string } | undefined
}

type Part = TemplateResult | string | typeof nothing

export function renderMarkdown(text: string, options: MarkdownOptions): Part[] {
  let tokens: Token[]
  try {
    tokens = Lexer.lex(text, { gfm: true })
  } catch {
    return [html`<p>${text}</p>`]
  }
  return blocks(tokens, options)
}

function blocks(tokens: Token[], options: MarkdownOptions): Part[] {
  return tokens.map((token) => block(token, options))
}

function block(token: Token, options: MarkdownOptions): Part {
  const t = token as Tokens.Generic
  switch (token.type) {
    case 'space':
    case 'def':
      return nothing
    case 'paragraph':
      return html`<p>${inline((token as Tokens.Paragraph).tokens, options)}</p>`
    case 'heading': {
      const heading = token as Tokens.Heading
      return html`
        <p class="heading h${Math.min(heading.depth, 4)}" role="heading"
          aria-level=${Math.min(heading.depth + 2, 6)}>${inline(heading.tokens, options)}</p>
      `
    }
    case 'code': {
      // Code reads left to right on any page (an Arabic docs site's too), and a line wider than the panel scrolls:
      // focusable, so a keyboard reader can scroll it as well (axe's scrollable-region-focusable).
      const code = token as Tokens.Code
      return html`
        <div class="code" part="code-block">
          <div class="code-bar"><span>${code.lang ?? ''}</span
                  ><button type="button" class="copy-code" aria-label=${options.copyLabel} @click=${(e: Event) =>
                    options.onCopy(code.text, e.currentTarget as HTMLButtonElement)}>${options.copyLabel}</button></div>
          <pre tabindex="0" dir="ltr"><code>${highlight(code.text, code.lang)}</code></pre>
        </div>
      `
    }
    case 'blockquote':
      return html`<blockquote>${blocks((token as Tokens.Blockquote).tokens, options)}</blockquote>`
    case 'hr':
      return html`<hr />`
    case 'list': {
      const list = token as Tokens.List
      const items = list.items.map((item) => html`<li>${item.task ? (item.checked ? '☑ ' : '☐ ') : ''}${listItem(item, options)}</li>`)
      return list.ordered ? html`<ol start=${typeof list.start === 'number' ? list.start : 1}>${items}</ol>` : html`<ul>${items}</ul>`
    }
    case 'table': {
      const table = token as Tokens.Table
      // A class, not a style attribute: a page whose Content-Security-Policy has no 'unsafe-inline' styles refuses those.
      const alignment = (i: number) => (table.align[i] ? `align-${table.align[i]}` : nothing)
      return html`
        <div class="table" tabindex="0">
          <table>
            <thead>
              <tr>${table.header.map((cell, i) => html`<th class=${alignment(i)}>${inline(cell.tokens, options)}</th>`)}</tr>
            </thead>
            <tbody>${table.rows.map(
              (row) => html`<tr>${row.map((cell, i) => html`<td class=${alignment(i)}>${inline(cell.tokens, options)}</td>`)}</tr>`,
            )}</tbody>
          </table>
        </div>
      `
    }
    case 'html':
      // Raw HTML from the model is shown as the text it is, never parsed.
      return html`<p>${t.raw}</p>`
    case 'text':
      return html`<p>${t.tokens ? inline(t.tokens, options) : t.text}</p>`
    default:
      return t.raw ? html`<p>${t.raw}</p>` : nothing
  }
}

function listItem(item: Tokens.ListItem, options: MarkdownOptions): Part[] {
  // Tight list items hold a bare text token: render it inline so items do not become paragraphs.
  return item.tokens.map((token) => {
    if (token.type === 'text') {
      const text = token as Tokens.Text
      return html`${text.tokens ? inline(text.tokens, options) : text.text}`
    }
    if (token.type === 'checkbox') return nothing
    return block(token, options)
  })
}

function inline(tokens: Token[] | undefined, options: MarkdownOptions): Part[] {
  return (tokens ?? []).map((token): Part => {
    const t = token as Tokens.Generic
    switch (token.type) {
      case 'strong':
        return html`<strong>${inline(t.tokens, options)}</strong>`
      case 'em':
        return html`<em>${inline(t.tokens, options)}</em>`
      case 'del':
        return html`<del>${inline(t.tokens, options)}</del>`
      case 'codespan':
        return html`<code dir="ltr">${(token as Tokens.Codespan).text}</code>`
      case 'br':
        return html`<br />`
      case 'link': {
        const link = token as Tokens.Link
        const safe = safeLink(link.href)
        return safe ? anchor(safe, inline(link.tokens, options)) : html`${inline(link.tokens, options)}`
      }
      case 'image': {
        // Images are not loaded (no tracking pixels, no onerror): the reader gets a link to open them.
        const image = token as Tokens.Image
        const safe = safeLink(image.href)
        const label = image.text || image.href
        return safe ? anchor({ ...safe, external: true }, `🖼 ${label}`) : label
      }
      case 'text':
        return t.tokens ? html`${inline(t.tokens, options)}` : citations(t.text as string, options)
      case 'escape':
        return t.text as string
      default:
        // html tags and anything unknown: the raw text, shown as text.
        return (t.raw as string) ?? ''
    }
  })
}

/** `[2]` in an answer's text becomes a small link to its second source, when the answer has one. */
function citations(text: string, options: MarkdownOptions): Part {
  if (!options.source || !/\[\d{1,2}\]/.test(text)) return text
  return html`${text.split(/(\[\d{1,2}\])/).map((piece) => {
    const n = /^\[(\d{1,2})\]$/.exec(piece)?.[1]
    const source = n ? options.source!(Number(n)) : undefined
    return source
      ? html`
          <a class="cite" href=${source.href} title=${source.title} aria-label=${source.label}
            data-source=${n}>${n}</a>
        `
      : piece
  })}`
}

/** Off-site links open in a new tab and carry nothing of the page with them. */
export function anchor(link: SafeLink, content: unknown) {
  return link.external
    ? html`
      <a href=${link.href} target="_blank"
        rel="noopener noreferrer nofollow">${content}</a>
    `
    : html`<a href=${link.href}>${content}</a>`
}
