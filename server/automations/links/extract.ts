import GithubSlugger, { slug } from 'github-slugger'
import type { Definition, Heading, Link, Nodes, Parent } from 'mdast'
import type { MdxJsxAttribute, MdxJsxFlowElement, MdxJsxTextElement } from 'mdast-util-mdx'
import { plainText } from '../../search/page-blocks.ts'

/** One link target written in a page, with where its text sits so a fix can replace exactly that. */
export interface LinkOccurrence {
  /** The target as the parser read it (`/guides/setup#install`). */
  url: string
  /** Offsets of the target's characters in the file. */
  start: number
  end: number
  /** False when the written target differs from `url` (escapes, entities): it is checked, never rewritten. */
  editable: boolean
  kind: 'markdown' | 'definition' | 'jsx' | 'html'
  /** The link's text or the card's title, a hint of the page it meant. */
  text?: string
}

export interface PageLinks {
  links: LinkOccurrence[]
  /** Ids a URL fragment can point at: heading slugs (github-slugger, as the site makes them) and `id` attributes. */
  anchors: Set<string>
  /** Ids components make from their attributes (fields, tabs, changelog entries): links to them are fine, but a fix never aims at one. */
  componentAnchors: Set<string>
  /** `import X from '...mdx'` paths: the snippet's headings are the page's too. */
  imports: string[]
  /** Text of the first top-level heading, a title for pages whose frontmatter has none. */
  h1?: string
}

/**
 * Mintlify components that put an anchor on the page from an attribute: `<Update label="May 2025">` is `#may-2025`,
 * `<Tab title="OAuth 2.0">` `#oauth-2-0`, a field (`<ParamField path="icons.library">`, `<ResponseField name="...">`)
 * `#param-icons-library` (the Mintlify docs link response fields with `param-` too; `response-` is kept as well, to
 * be lenient: these are read from how the docs link them, not from a specification).
 */
const COMPONENT_ANCHORS: Record<string, { attributes: string[]; prefixes: string[] }> = {
  Update: { attributes: ['label'], prefixes: [''] },
  Tab: { attributes: ['title'], prefixes: [''] },
  Accordion: { attributes: ['title'], prefixes: [''] },
  ParamField: { attributes: ['path', 'query', 'body', 'header', 'param'], prefixes: ['param-'] },
  ResponseField: { attributes: ['name'], prefixes: ['param-', 'response-'] },
}

/** Where a tag of raw HTML starts: `<` and a letter; its name runs to a space, `/` or `>` (`<a`, `<div`). */
const TAG_START = /<([a-zA-Z][^\t\n\f\r />]*)/g
/** What HTML's tokenizer reads as space between a tag's attributes. */
const HTML_SPACE = '\t\n\f\r '

/** The links and anchors of a parsed page. `source` is the text the tree was parsed from. */
export function pageLinks(tree: Parent, source: string): PageLinks {
  const out: PageLinks = { links: [], anchors: new Set(), componentAnchors: new Set(), imports: [] }
  const slugger = new GithubSlugger()
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'code':
      case 'inlineCode':
      case 'yaml':
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        return
      case 'mdxjsEsm':
        for (const match of node.value.matchAll(/import\s+\w+\s+from\s+["']([^"']+\.mdx?)["']/g)) out.imports.push(match[1]!)
        return
      case 'heading': {
        const text = plainText(node as Heading).trim()
        out.anchors.add(slugger.slug(text))
        if (node.depth === 1) out.h1 ??= text
        break
      }
      case 'link':
        addMarkdownLink(node, source, out.links)
        break
      case 'definition':
        addDefinition(node, source, out.links)
        return
      case 'html':
        addHtml(node.value, node.position?.start.offset, out)
        return
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement':
        addJsx(node, source, out)
        break
    }
    if ('children' in node) {
      for (const child of (node as Parent).children) visit(child as Nodes)
    }
  }
  visit(tree as Nodes)
  return out
}

/** `[text](target "title")`: the target starts after the `](` that closes the text. */
function addMarkdownLink(node: Link, source: string, links: LinkOccurrence[]) {
  const from = node.children.at(-1)?.position?.end.offset ?? (node.position?.start.offset ?? -1) + 1
  const end = node.position?.end.offset
  if (from < 0 || end === undefined) return
  const open = source.indexOf('](', from)
  if (open === -1 || open >= end) return // an autolink or a reference: no written target here
  const target = destination(source, open + 2, end)
  if (target) links.push(occurrence(node.url, target, 'markdown', plainText(node).trim()))
}

/** `[label]: target "title"`. */
function addDefinition(node: Definition, source: string, links: LinkOccurrence[]) {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  if (start === undefined || end === undefined) return
  const colon = source.indexOf(']:', start)
  if (colon === -1 || colon >= end) return
  const target = destination(source, colon + 2, end)
  if (target) links.push(occurrence(node.url, target, 'definition', node.label ?? undefined))
}

/** Where a target is written: its offsets and its characters as written. */
interface Written {
  start: number
  end: number
  raw: string
}

const occurrence = (url: string, written: Written, kind: LinkOccurrence['kind'], text?: string): LinkOccurrence => ({
  url,
  start: written.start,
  end: written.end,
  editable: written.raw === url,
  kind,
  ...(text ? { text } : {}),
})

/** A link destination from `at`: spaces, then `<...>` or a run of characters with balanced parentheses. */
function destination(source: string, at: number, limit: number): Written | undefined {
  let i = at
  while (i < limit && /\s/.test(source[i]!)) i++
  if (source[i] === '<') {
    const close = source.indexOf('>', i)
    if (close === -1 || close > limit) return undefined
    return { start: i + 1, end: close, raw: source.slice(i + 1, close) }
  }
  const start = i
  let depth = 0
  for (; i < limit; i++) {
    const char = source[i]!
    if (char === '\\') {
      i++
      continue
    }
    if (/\s/.test(char)) break
    if (char === '(') depth++
    else if (char === ')') {
      if (depth === 0) break
      depth--
    }
  }
  return { start, end: i, raw: source.slice(start, i) }
}

function addJsx(node: MdxJsxFlowElement | MdxJsxTextElement, source: string, out: PageLinks) {
  const component = node.name ? COMPONENT_ANCHORS[node.name] : undefined
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || typeof attribute.value !== 'string') continue
    if (attribute.name === 'id') out.anchors.add(attribute.value)
    if (component?.attributes.includes(attribute.name)) {
      for (const prefix of component.prefixes) out.componentAnchors.add(slug(prefix + attribute.value))
    }
    if (attribute.name !== 'href') continue
    const target = attributeValue(attribute, source)
    const title = node.attributes.find((a): a is MdxJsxAttribute => a.type === 'mdxJsxAttribute' && a.name === 'title')
    const text = typeof title?.value === 'string' ? title.value : plainText(node as Nodes).trim() || undefined
    if (target) out.links.push(occurrence(attribute.value, target, 'jsx', text))
  }
}

/** The quoted value of `name="value"` in the source. */
function attributeValue(attribute: MdxJsxAttribute, source: string): Written | undefined {
  const start = attribute.position?.start.offset
  const end = attribute.position?.end.offset
  if (start === undefined || end === undefined) return undefined
  const text = source.slice(start, end)
  const quote = /=\s*(["'])/.exec(text)
  if (!quote || !text.endsWith(quote[1]!)) return undefined
  const from = start + quote.index + quote[0].length
  return { start: from, end: end - 1, raw: source.slice(from, end - 1) }
}

/** Raw HTML (a page that is not valid MDX is read as markdown with HTML): `<a href>` and `id` attributes. */
function addHtml(html: string, offset: number | undefined, out: PageLinks) {
  if (offset === undefined) return
  const attributes = quotedAttributes(html)
  for (const { name, value } of attributes) if (name === 'id' && value) out.anchors.add(value)
  for (const { tag, name, value, end } of attributes) {
    if (tag !== 'a' || name !== 'href') continue
    const start = offset + end - 1 - value.length
    out.links.push({
      url: decodeEntities(value),
      start,
      end: start + value.length,
      editable: !value.includes('&'),
      kind: 'html',
    })
  }
}

/**
 * The quoted attributes of raw HTML's tags (tag and attribute names lower-cased), each with where it ends (after its
 * closing quote). Read as HTML's tokenizer reads a tag: it runs to the first `>` outside a quoted value, so
 * `<a title="a > b" href="/c">` has its href, and a tag whose quoted value never closes is dropped. Each character is
 * read once, however tags nest or fail to close (`<a<a<a…`): the patterns this replaces read a tag again from each `<a`
 * inside it, and stopped at the first `>`, even one inside a value.
 */
function quotedAttributes(html: string): Array<{ tag: string; name: string; value: string; end: number }> {
  const attributes: Array<{ tag: string; name: string; value: string; end: number }> = []
  const isSpace = (at: number) => HTML_SPACE.includes(html[at]!)
  TAG_START.lastIndex = 0
  for (let start = TAG_START.exec(html); start; start = TAG_START.exec(html)) {
    const tag = start[1]!.toLowerCase()
    const ofTag: typeof attributes = []
    let at = start.index + start[0].length
    while (at < html.length && html[at] !== '>') {
      if (isSpace(at) || html[at] === '/') {
        at++
        continue
      }
      // A name runs to a space, `/`, `>` or `=` (a first `=` is part of it).
      const nameStart = at++
      while (at < html.length && !isSpace(at) && html[at] !== '/' && html[at] !== '>' && html[at] !== '=') at++
      const name = html.slice(nameStart, at).toLowerCase()
      let next = at
      while (next < html.length && isSpace(next)) next++
      if (html[next] !== '=') continue
      next++
      while (next < html.length && isSpace(next)) next++
      const quote = html[next]
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, next + 1)
        if (close === -1) {
          ofTag.length = 0
          at = html.length
          break
        }
        ofTag.push({ tag, name, value: html.slice(next + 1, close), end: close + 1 })
        at = close + 1
      } else {
        while (next < html.length && !isSpace(next) && html[next] !== '>') next++
        at = next
      }
    }
    for (const attribute of ofTag) attributes.push(attribute)
    TAG_START.lastIndex = at
  }
  return attributes
}

const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
