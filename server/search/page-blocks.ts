import type { Nodes, Parent, RootContent } from 'mdast'
import type { MdxJsxAttribute, MdxJsxFlowElement } from 'mdast-util-mdx'

/** A page flattened into what a reader sees: headings and the markdown between them, MDX components reduced to text. */
export type Block = { kind: 'heading'; depth: number; text: string; markdown: string } | { kind: 'text'; markdown: string }

export interface BlockOptions {
  source: string
  /** Blocks of an imported snippet (`import Prereqs from '/snippets/prereqs.mdx'` then `<Prereqs />`), if known. */
  snippet?: (importPath: string) => Block[] | undefined
}

/** Attributes whose values are text a reader sees (card and tab titles, field names, changelog labels). */
const TEXT_ATTRIBUTES = new Set(['title', 'label', 'description', 'name', 'body', 'query', 'path', 'header', 'type'])

export function pageBlocks(children: RootContent[], options: BlockOptions): Block[] {
  const imports = importsOf(children)
  const out: Block[] = []
  flatten(children, options, imports, out)
  return out
}

/** Most blocks a page may hold once its snippets are expanded; a page past it is left out of the site (docs-site.ts). */
export const MAX_PAGE_BLOCKS = 20_000

function flatten(nodes: RootContent[], options: BlockOptions, imports: Map<string, string>, out: Block[]): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'yaml':
      case 'mdxjsEsm':
      case 'definition':
        break
      case 'mdxFlowExpression': {
        const text = literalOf(node.value)
        if (text) out.push({ kind: 'text', markdown: text })
        break
      }
      case 'mdxJsxFlowElement': {
        if (forAgentsOnly(node)) break
        const importPath = node.name ? imports.get(node.name) : undefined
        const snippet = importPath ? options.snippet?.(importPath) : undefined
        if (snippet) {
          // Snippets that use snippets twice over double at each level: 18 levels in 2 KB made 2^17 blocks.
          if (out.length + snippet.length > MAX_PAGE_BLOCKS) {
            throw new Error(`a page may hold at most ${MAX_PAGE_BLOCKS} blocks with its snippets expanded`)
          }
          for (const block of snippet) out.push(block)
          break
        }
        const label = linkedLabel(node)
        const children = node.children as RootContent[]
        // A linked card's title and its first paragraph are one line, as an overview lists pages:
        // "[Prompt](/components/prompt): Display copyable AI prompts." (a title alone is a label that waits for it).
        const first = children[0]
        if (label && pageHref(node) && first?.type === 'paragraph') {
          out.push({ kind: 'text', markdown: `${label}: ${render(first, options.source).trim()}` })
          flatten(children.slice(1), options, imports, out)
          break
        }
        if (label) out.push({ kind: 'text', markdown: label })
        const from = out.length
        flatten(children, options, imports, out)
        withDefault(node, out, from)
        break
      }
      case 'heading':
        out.push({ kind: 'heading', depth: node.depth, text: plainText(node).trim(), markdown: render(node, options.source) })
        break
      case 'html':
        if (!node.value.trim().startsWith('<!--')) out.push({ kind: 'text', markdown: node.value })
        break
      default: {
        const markdown = render(node, options.source).trim()
        if (markdown) out.push({ kind: 'text', markdown })
      }
    }
  }
}

/**
 * The sentence a field's default becomes (see withDefault), after the start of a line or a space. The space is matched
 * and put back (withoutFieldDefaults), not looked behind at: recheck cannot prove a lookbehind linear (it falls back
 * to fuzzing, which reported `(?<=^|\s)` here on some runs, though V8 ran the attack in linear time).
 */
const FIELD_DEFAULT = /(^|\s)Default: `[^`\n]*`\./gm

/**
 * The text without its fields' defaults. The index leaves them out (engines/types.ts `fieldsOf`): a hundred defaults
 * (`user`, `true`, `50`) would shift every page's word weights for what only an answer needs.
 */
export function withoutFieldDefaults(text: string): string {
  return text.replace(FIELD_DEFAULT, '$1')
}

/**
 * A field's default (`<ParamField query="limit" default="50">`), which the rendered docs show beside its name, ends its
 * description: "limit integer: 1–200. Default: `50`." (a sentence that stays with the one before it).
 */
function withDefault(node: MdxJsxFlowElement, out: Block[], from: number): void {
  const written = attributeValue(node, 'default')
  // `default="p"`, or a literal written as an expression: `default={2}`, `default={true}`, `default={"left"}`.
  const literal =
    typeof written === 'string'
      ? written
      : written && /^\s*(-?[\d.]+|true|false|null)\s*$/.test(written.value)
        ? written.value
        : literalOf(written?.value ?? '')
  const value = literal.trim().replace(/[`\n]/g, '')
  if (!value) return
  const sentence = `Default: \`${value}\`.`
  const last = out.at(-1)
  // Only after a sentence of the field's own: a list, a table or code ends on something else.
  const lastLine = last?.kind === 'text' && out.length > from ? last.markdown.split('\n').at(-1)!.trim() : ''
  if (last?.kind === 'text' && /[.!?][*_"')`]*$/.test(lastLine) && !/^([-*+|>]|\d+[.)]|```|~~~)/.test(lastLine)) {
    // A new block, not the last one changed: it may be a snippet's, shared by every page (and field) that uses it.
    out[out.length - 1] = { ...last, markdown: `${last.markdown} ${sentence}` }
  } else {
    out.push({ kind: 'text', markdown: sentence })
  }
}

/** Local component names of `import X from '...md(x)'` statements. */
function importsOf(children: RootContent[]): Map<string, string> {
  const imports = new Map<string, string>()
  for (const node of children) {
    if (node.type !== 'mdxjsEsm') continue
    for (const match of node.value.matchAll(/import\s+(\w+)\s+from\s+["']([^"']+\.mdx?)["']/g)) {
      imports.set(match[1]!, match[2]!)
    }
  }
  return imports
}

function attributeText(node: MdxJsxFlowElement): string {
  const values: string[] = []
  for (const attribute of node.attributes) {
    if (attribute.type !== 'mdxJsxAttribute' || !TEXT_ATTRIBUTES.has(attribute.name)) continue
    const value = (attribute as MdxJsxAttribute).value
    if (typeof value === 'string' && value.trim()) values.push(value.trim())
  }
  return values.join(' ')
}

/**
 * A card's title links to the page its `href` leads to (`<Card title="Prompt" href="/components/prompt">` reads
 * "[Prompt](/components/prompt)"): an overview's card grid names pages, and an answer quoting a card can cite the page
 * it points to. Other hrefs (external sites, anchors) leave the title as text.
 */
function linkedLabel(node: MdxJsxFlowElement): string {
  const label = attributeText(node)
  const href = pageHref(node)
  return label && href ? `[${label.replace(/[[\]]/g, '')}](${href})` : label
}

/**
 * `<Visibility for="agents">`: what a site shows only to AI tools reading its Markdown, never on the page ("If the user
 * asks you to set up Mintlify, complete the following workflow yourself"). Readers ask about the page they see: such
 * text is neither searched, nor quoted to them, nor shown on the site's pages. `for="humans"` content is the page's own.
 */
function forAgentsOnly(node: MdxJsxFlowElement): boolean {
  return node.name === 'Visibility' && attributeValue(node, 'for') === 'agents'
}

/** A component's `href` when it leads to a page of the same docs (`/components/prompt`, `../setup`). */
function pageHref(node: MdxJsxFlowElement): string | undefined {
  const href = attributeValue(node, 'href')
  return typeof href === 'string' && /^\.{0,2}\/[^/]/.test(href.trim()) ? href.trim() : undefined
}

/** A named attribute's value: a string, or an expression (`{2}`) as written. */
function attributeValue(node: MdxJsxFlowElement, name: string): MdxJsxAttribute['value'] | undefined {
  return node.attributes.find((attribute): attribute is MdxJsxAttribute => attribute.type === 'mdxJsxAttribute' && attribute.name === name)
    ?.value
}

/**
 * `{"text"}` or `{'text'}` expressions are text; anything else (comments, code) is not. The spaces around are trimmed
 * first (`\s` and trim take the same characters), and each quote has its own alternative: `\s*` and a backreference
 * to the opening quote, as `/^\s*(["'`])([^"'`]*)\1\s*$/` had them, are more than recheck can prove linear.
 */
function literalOf(expression: string): string {
  const match = /^(?:"([^"'`]*)"|'([^"'`]*)'|`([^"'`]*)`)$/.exec(expression.trim())
  return match ? (match[1] ?? match[2] ?? match[3]!) : ''
}

/** The node's own source markdown, with MDX tags, expressions and imports cut out and its indentation removed. */
export function render(node: Nodes, source: string): string {
  const start = node.position?.start.offset
  const end = node.position?.end.offset
  if (start === undefined || end === undefined) return plainText(node)
  const edits: Array<[number, number, string]> = []
  collectEdits(node, edits)
  let text = ''
  let at = start
  for (const [from, to, replacement] of edits.sort((a, b) => a[0] - b[0])) {
    if (from < at) continue
    text += source.slice(at, from) + replacement
    at = to
  }
  text += source.slice(at, end)
  return dedent(text, (node.position?.start.column ?? 1) - 1)
}

function collectEdits(node: Nodes, edits: Array<[number, number, string]>): void {
  if (!('children' in node)) return
  for (const child of (node as Parent).children as Nodes[]) {
    const from = child.position?.start.offset
    const to = child.position?.end.offset
    if (from === undefined || to === undefined) continue
    switch (child.type) {
      case 'mdxjsEsm':
      case 'mdxFlowExpression':
      case 'mdxTextExpression':
        edits.push([from, to, literalOf(child.value)])
        break
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        if (forAgentsOnly(child as MdxJsxFlowElement)) {
          edits.push([from, to, ''])
          break
        }
        const inner = child.children as Nodes[]
        const first = inner[0]?.position?.start.offset
        const last = inner.at(-1)?.position?.end.offset
        // An inline card or tab keeps its title: `<Card title="Node.js">Server side.</Card>` reads "Node.js: Server side.".
        const label = linkedLabel(child as MdxJsxFlowElement)
        if (first === undefined || last === undefined) {
          edits.push([from, to, label])
        } else {
          edits.push([from, first, label ? `${label}: ` : ''], [last, to, ''])
          collectEdits(child, edits)
        }
        break
      }
      default:
        collectEdits(child, edits)
    }
  }
}

function dedent(text: string, columns: number): string {
  if (columns <= 0 || !text.includes('\n')) return text
  const pattern = new RegExp(`\n[ \\t]{0,${columns}}`, 'g')
  return text.replace(pattern, '\n')
}

/** Text of a node as a reader sees it, without MDX expressions. */
export function plainText(node: Nodes): string {
  switch (node.type) {
    case 'text':
    case 'inlineCode':
      return node.value
    case 'mdxTextExpression':
    case 'mdxFlowExpression':
      return literalOf(node.value)
    case 'break':
      return ' '
    default:
      return 'children' in node ? ((node as Parent).children as Nodes[]).map(plainText).join('') : ''
  }
}
