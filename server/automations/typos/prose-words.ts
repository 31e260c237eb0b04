import type { Nodes, Parent } from 'mdast'
import { trimEnd } from '../../../shared/trim.ts'
import type { Frontmatter } from '../docs-tree.ts'

/** A word a reader reads as prose, where it sits in the file, and what is around it. */
export interface ProseWord {
  /** The word as written, `’` made `'`; a possessive `'s` is not part of it. */
  word: string
  start: number
  end: number
  /** First word of a sentence, heading, list item, table cell or frontmatter value: a capital there says nothing. */
  sentenceStart: boolean
  /** In a heading or title, where Title Case capitalizes every word. */
  title: boolean
}

/** Blocks whose text is read as one run of sentences. */
const BLOCKS = new Set(['paragraph', 'heading', 'tableCell'])
/** Nodes that are not prose: code, raw HTML, MDX expressions and imports, frontmatter, link definitions. */
const NOT_PROSE = new Set([
  'code',
  'inlineCode',
  'html',
  'yaml',
  'mdxFlowExpression',
  'mdxTextExpression',
  'mdxjsEsm',
  'definition',
  'image',
  'imageReference',
])
/** Frontmatter fields that are prose a reader sees (page title, sidebar label, description). */
const PROSE_FIELDS = /^(title|sidebarTitle|description)[ \t]*:[ \t]*/

/** A run of characters with no space: a word and the punctuation stuck to it, or a URL, path, identifier... */
const CHUNK = /\S+/g
/** Punctuation around a word that does not make it something else (`(word),` `"word".`). */
const LEADING = /^[(["'“‘¿¡]+/
/** Cut with trimEnd, linear: `/[)\]"'”’.,;:!?…]+$/` read the rest of a run of these from each of them (`!!!…!x`). */
const TRAILING = ')]"\'”’.,;:!?…'
/** Only letters, with apostrophes or hyphens between them: `don't`, `well-known`; not `a.b`, `x/y`, `v2`, `snake_case`. */
const PLAIN = /^\p{L}+(?:['’-]\p{L}+)*$/u
const PART = /\p{L}+(?:['’]\p{L}+)*/gu

/**
 * The prose words of a parsed page: text a reader reads, never code (fenced or inline), URLs, paths, file names,
 * JSX/HTML tags and attributes, MDX expressions or frontmatter keys. A run of characters that is not plain words
 * (`docs.json`, `api/v2`, `--flag`, `a_b`, `x=1`) is skipped whole.
 */
export function proseWords(tree: Parent, source: string, frontmatter?: Frontmatter): ProseWord[] {
  const words: ProseWord[] = []
  if (frontmatter) frontmatterWords(source, frontmatter, words)
  const visit = (node: Nodes, inBlock: { last: string; title: boolean } | undefined) => {
    if (NOT_PROSE.has(node.type)) {
      // Code inside a sentence reads as a word: what follows it does not start a sentence.
      if (inBlock && node.type === 'inlineCode') inBlock.last = 'x'
      return
    }
    if (BLOCKS.has(node.type)) {
      const block = { last: '', title: node.type === 'heading' }
      for (const child of (node as Parent).children) visit(child as Nodes, block)
      return
    }
    if (node.type === 'text' && inBlock) {
      const start = node.position?.start.offset
      const end = node.position?.end.offset
      if (start !== undefined && end !== undefined) wordsOf(source, start, end, inBlock, words)
      return
    }
    if ('children' in node) {
      for (const child of (node as Parent).children) visit(child as Nodes, inBlock)
    }
  }
  visit(tree as Nodes, undefined)
  return words
}

/** Words of `source[start, end)`, a run of text whose sentence so far ends with `block.last`. */
function wordsOf(source: string, start: number, end: number, block: { last: string; title: boolean }, out: ProseWord[]) {
  const text = source.slice(start, end)
  for (const match of text.matchAll(CHUNK)) {
    const chunk = match[0]
    const lead = LEADING.exec(chunk)?.[0].length ?? 0
    const core = trimEnd(chunk.slice(lead), TRAILING)
    const sentenceStart = block.last === '' || /[.!?:]$/.test(block.last)
    block.last = chunk
    if (!core || !PLAIN.test(core)) continue
    const at = start + match.index! + lead
    let first = true
    for (const part of core.matchAll(PART)) {
      const word = part[0].replace(/’/g, "'").replace(/'s$/i, '')
      out.push({
        word,
        start: at + part.index!,
        end: at + part.index! + word.length,
        sentenceStart: sentenceStart && first,
        title: block.title,
      })
      first = false
    }
  }
}

/** Words of the one-line `title`, `sidebarTitle` and `description` values of the frontmatter. */
function frontmatterWords(source: string, frontmatter: Frontmatter, out: ProseWord[]) {
  let offset = frontmatter.start
  for (const line of frontmatter.yaml.split('\n')) {
    const key = PROSE_FIELDS.exec(line)
    if (key) {
      const value = line.slice(key[0].length).replace(/\r$/, '')
      // Spaces trimmed first (`\s` and trimEnd take the same characters), each quote its own alternative: recheck proves
      // this linear, not `^(["'])(.*)\1\s*$` (a `\s*` after the text, a backreference).
      const quote = /^(?:"(.*)"|'(.*)')$/.exec(value.trimEnd())
      const inner = quote ? (quote[1] ?? quote[2]!) : value
      // Block scalars (`>`, `|`) and escapes are left alone: their text is not where it reads.
      if (inner && !/^[>|]/.test(inner) && !inner.includes('\\')) {
        const start = offset + key[0].length + (quote ? 1 : 0)
        const block = { last: '', title: !key[1]!.startsWith('description') }
        wordsOf(source, start, start + inner.length, block, out)
      }
    }
    offset += line.length + 1
  }
}

/** JSX attributes that hold prose (a card's title), not names: their words are spelled, not learned. */
const PROSE_ATTRIBUTES = new Set(['title', 'description', 'label', 'tip', 'alt', 'placeholder'])

/** Lower-case words of the code in a page (inline and fenced) and of its JSX attributes: the project's vocabulary. */
export function codeWords(tree: Parent, into: Set<string>): void {
  const add = (text: string) => {
    for (const word of text.match(/\p{L}{3,}/gu) ?? []) into.add(word.toLowerCase())
  }
  const visit = (node: Nodes) => {
    if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'html') add(node.value)
    if (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') {
      for (const attribute of node.attributes) {
        if (attribute.type === 'mdxJsxAttribute' && typeof attribute.value === 'string' && !PROSE_ATTRIBUTES.has(attribute.name)) {
          add(attribute.value)
        }
      }
    }
    if ('children' in node) {
      for (const child of (node as Parent).children) visit(child as Nodes)
    }
  }
  visit(tree as Nodes)
}
