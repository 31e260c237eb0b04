import type { Root } from 'mdast'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'

export interface MarkdownTree {
  tree: Root
  /** False when the MDX parse failed and the page was read as plain markdown instead. */
  mdx: boolean
}

/**
 * Parses a page as MDX (Mintlify reads `.md` files as MDX too); a page that is not valid MDX (a stray `{` or `<`)
 * is read as plain GFM markdown, so one broken page never stops a corpus from loading.
 */
export function parseMarkdown(source: string): MarkdownTree {
  try {
    return {
      tree: fromMarkdown(source, {
        extensions: [mdxjs(), gfm(), frontmatter(['yaml'])],
        mdastExtensions: [mdxFromMarkdown(), gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
      }),
      mdx: true,
    }
  } catch {
    return {
      tree: fromMarkdown(source, {
        extensions: [gfm(), frontmatter(['yaml'])],
        mdastExtensions: [gfmFromMarkdown(), frontmatterFromMarkdown(['yaml'])],
      }),
      mdx: false,
    }
  }
}
