import { type PageMeta, readFrontmatter } from './frontmatter.ts'
import { parseMarkdown } from './markdown.ts'
import { type Block, pageBlocks } from './page-blocks.ts'

export interface ParsedPage {
  /** Path without extension relative to the docs root (`sdks/javascript`). */
  path: string
  meta: PageMeta
  /** Frontmatter title, else the first top-level heading, else the file name. */
  title: string
  blocks: Block[]
  /** False when the page was not valid MDX and was read as plain markdown. */
  mdx: boolean
}

export interface ParseOptions {
  snippet?: (importPath: string) => Block[] | undefined
}

export function parsePage(path: string, source: string, options: ParseOptions = {}): ParsedPage {
  const { tree, mdx } = parseMarkdown(source)
  const yaml = tree.children[0]?.type === 'yaml' ? tree.children[0].value : undefined
  const meta = readFrontmatter(yaml)
  const blocks = pageBlocks(tree.children, { source, snippet: options.snippet })
  const h1 = blocks.find((block) => block.kind === 'heading' && block.depth === 1)
  const title = meta.title ?? (h1?.kind === 'heading' ? h1.text : undefined) ?? titleFromPath(path)
  return { path, meta, title, blocks, mdx }
}

/** The page as markdown for readers and models: title, description, then the body with MDX reduced to text. */
export function pageMarkdown(page: ParsedPage): string {
  const first = page.blocks[0]
  const ownTitle = first?.kind === 'heading' && first.depth === 1
  const parts = [ownTitle ? first.markdown : `# ${page.title}`]
  if (page.meta.description) parts.push(page.meta.description)
  for (const block of ownTitle ? page.blocks.slice(1) : page.blocks) parts.push(block.markdown)
  return parts.join('\n\n') + '\n'
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
