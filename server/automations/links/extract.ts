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

/**
 * `<a ... href="...">` and `<tag ... id="...">` in raw HTML: where a tag starts, and the attribute (see attributeValues).
 * Each quote is its own alternative, not `(["'])([^"']*)\1`: recheck proves these linear, not the backreference.
 */
const HTML_HREF = { tags: /<a\b/gi, attribute: /\shref\s*=\s*(?:"([^"']*)"|'([^"']*)')/gi }
const HTML_ID = { tags: /<[a-zA-Z][\w-]*\b/g, attribute: /\sid\s*=\s*(?:"([^"']+)"|'([^"']+)')/g }

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
  for (const { value } of attributeValues(html, HTML_ID)) out.anchors.add(value)
  for (const { value, end } of attributeValues(html, HTML_HREF)) {
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
 * The values of one attribute in raw HTML, and where each match ends (after the closing quote): for each tag, the first
 * `attribute` that starts before the tag's first `>` (its value may run past it); after a match, tags from its end on.
 * That is what `/<a\b[^>]*?\shref\s*=\s*(["'])([^"']*)\1/gi` found, in linear time: the pattern read a tag again from
 * each `<a` inside it, to its `>` and on to the quote closing a value, quadratic in the tag (`<a<a<a…`). Here a tag
 * that has no match is skipped whole (a tag inside it has the same attributes), and the attribute's first match at or
 * after a point is searched for again only once the tags have passed it.
 */
function attributeValues(html: string, { tags, attribute }: { tags: RegExp; attribute: RegExp }): Array<{ value: string; end: number }> {
  const values: Array<{ value: string; end: number }> = []
  // The first match of `attribute` at or after where it was last searched from; null: none; undefined: not searched.
  let found: RegExpExecArray | null | undefined
  // The first `>` at or after the last tag's name; html.length: none.
  let close = -1
  tags.lastIndex = 0
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    const name = tag.index + tag[0].length
    if (close < name) {
      close = html.indexOf('>', name)
      if (close === -1) close = html.length
    }
    if (found === undefined || (found && found.index < name)) {
      attribute.lastIndex = name
      found = attribute.exec(html)
    }
    if (!found) break
    if (found.index < close) {
      values.push({ value: found[1] ?? found[2]!, end: found.index + found[0].length })
      tags.lastIndex = found.index + found[0].length
    } else if (close < html.length) tags.lastIndex = close + 1
    else break
  }
  return values
}

const decodeEntities = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
