import type { Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote'
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough'
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table'
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import type { Extension as MdastExtension } from 'mdast-util-from-markdown'
import type { Extension } from 'micromark-util-types'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfmFootnote } from 'micromark-extension-gfm-footnote'
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough'
import { gfmTable } from 'micromark-extension-gfm-table'
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item'
import { mdxjs } from 'micromark-extension-mdxjs'

export interface MarkdownTree {
  tree: Root
  /** False when the MDX parse failed and the page was read as plain markdown instead. */
  mdx: boolean
}

const MDX = mdxjs()
const FRONTMATTER = frontmatter(['yaml'])
/**
 * GFM's constructs, each with a test for the text it needs: a construct a page cannot contain is left out of its
 * parse, which then builds the same tree faster (the table construct alone tries every paragraph line as a header
 * row). GFM's autolink literals (`www.x.com` as a link) are not used at all: pages are rendered from their source and
 * a link's text is its URL, so they change nothing we read, and they were a third of the parse time.
 */
const GFM: Array<[Extension, MdastExtension, (source: string) => boolean]> = [
  [gfmTable(), gfmTableFromMarkdown(), (source) => source.includes('|')],
  [gfmStrikethrough(), gfmStrikethroughFromMarkdown(), (source) => source.includes('~')],
  [gfmTaskListItem(), gfmTaskListItemFromMarkdown(), (source) => /\[[ xX]\]/.test(source)],
  [gfmFootnote(), gfmFootnoteFromMarkdown(), (source) => source.includes('[^')],
]
const MDX_FROM_MARKDOWN = mdxFromMarkdown()
const FRONTMATTER_FROM_MARKDOWN = frontmatterFromMarkdown(['yaml'])

/**
 * Parses a page as MDX (Mintlify reads `.md` files as MDX too); a page that is not valid MDX (a stray `{` or `<`)
 * is read as plain GFM markdown, so one broken page never stops a corpus from loading.
 */
export function parseMarkdown(source: string): MarkdownTree {
  const gfm = GFM.filter(([, , needed]) => needed(source))
  const syntax = gfm.map(([extension]) => extension)
  const trees = gfm.map(([, mdast]) => mdast)
  try {
    const tree = fromMarkdown(source, {
      extensions: [MDX, ...syntax, FRONTMATTER],
      mdastExtensions: [MDX_FROM_MARKDOWN, ...trees, FRONTMATTER_FROM_MARKDOWN],
    })
    return { tree, mdx: true }
  } catch {
    const tree = fromMarkdown(source, { extensions: [...syntax, FRONTMATTER], mdastExtensions: [...trees, FRONTMATTER_FROM_MARKDOWN] })
    return { tree, mdx: false }
  }
}
