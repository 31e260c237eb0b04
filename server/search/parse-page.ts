import { type Chunk, chunkLayout, type ChunkOptions, operationLine } from './chunk.ts'
import { type PageMeta, readFrontmatter } from './frontmatter.ts'
import { escapeDelimiterFloods } from './delimiter-runs.ts'
import { oneLine } from '../keys/control-characters.ts'
import { parseMarkdown } from './markdown.ts'
import { type Block, pageBlocks } from './page-blocks.ts'

/** A page as it is kept once parsed: its markdown, and where its sections are in it. */
export interface ParsedPage {
  /** Path without extension relative to the docs root (`sdks/javascript`). */
  path: string
  meta: PageMeta
  /** Frontmatter title, else the first top-level heading, else the file name. */
  title: string
  /** False when the page was not valid MDX and was read as plain markdown. */
  mdx: boolean
  /** The page as markdown for readers and models: title, description, then the body with MDX reduced to text. */
  markdown: string
  /** Its sections, as offsets into `markdown`. */
  chunks: Chunk[]
}

export interface ParseOptions {
  snippet?: (importPath: string) => Block[] | undefined
  /** How sections are cut (tests use small ones). */
  chunking?: ChunkOptions
}

export function parsePage(path: string, source: string, options: ParseOptions = {}): ParsedPage {
  const { meta, title, blocks, mdx } = readPage(path, source, options)
  const { markdown, spans } = renderPage(title, meta, blocks)
  return { path, meta, title, mdx, markdown, chunks: chunkLayout(title, blocks, spans, markdown, options.chunking) }
}

/**
 * A page's text as micromark reads it, runs of emphasis delimiters escaped first (see delimiter-runs.ts): its tree, and
 * whether it is valid MDX (else it was read as plain markdown).
 */
export function parseSource(written: string) {
  const source = escapeDelimiterFloods(written)
  return { source, ...parseMarkdown(source) }
}

/** A page as blocks: what a snippet contributes to the pages that import it, and what sections are cut from. */
export function readPage(path: string, written: string, options: ParseOptions = {}) {
  const { source, tree, mdx } = parseSource(written)
  const yaml = tree.children[0]?.type === 'yaml' ? tree.children[0].value : undefined
  const meta = readFrontmatter(yaml)
  const blocks = pageBlocks(tree.children, { source, snippet: options.snippet })
  const h1 = blocks.find((block) => block.kind === 'heading' && block.depth === 1)
  // On one line and without control characters, wherever it is shown (search results, sources, MCP, llms.txt).
  const title = oneLine(meta.title ?? (h1?.kind === 'heading' ? h1.text : undefined)) || titleFromPath(path)
  return { meta, title, blocks, mdx }
}

/**
 * Title, description, the API operation the page documents (its body is often empty: the operation is what it is
 * about), then the blocks, a blank line apart; with each block's offsets in the result.
 */
function renderPage(title: string, { description, endpoint }: PageMeta, blocks: Block[]) {
  const ownTitle = blocks[0]?.kind === 'heading' && blocks[0].depth === 1
  const parts: string[] = []
  const spans: Array<[number, number]> = new Array(blocks.length)
  let length = -2
  const push = (text: string, block?: number) => {
    const start = length + 2
    parts.push(text)
    length = start + text.length
    if (block !== undefined) spans[block] = [start, length]
  }
  push(ownTitle ? blocks[0]!.markdown : `# ${title}`, ownTitle ? 0 : undefined)
  if (description) push(description)
  if (endpoint) push(operationLine(endpoint))
  for (let i = ownTitle ? 1 : 0; i < blocks.length; i++) push(blocks[i]!.markdown, i)
  return { markdown: parts.join('\n\n') + '\n', spans }
}

function titleFromPath(path: string): string {
  const name =
    path
      .split('/')
      .filter((part) => part !== 'index')
      .at(-1) ?? 'Home'
  const words = name.replace(/[-_]+/g, ' ').trim()
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Home'
}
