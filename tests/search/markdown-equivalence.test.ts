import { existsSync } from 'node:fs'
import { fromMarkdown } from 'mdast-util-from-markdown'
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter'
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { mdxFromMarkdown } from 'mdast-util-mdx'
import { frontmatter } from 'micromark-extension-frontmatter'
import { gfm } from 'micromark-extension-gfm'
import { mdxjs } from 'micromark-extension-mdxjs'
import { describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../server/search/markdown.ts'
import { pageBlocks } from '../../server/search/page-blocks.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'

// parseMarkdown leaves out the GFM constructs a page cannot contain, and GFM's autolink literals always. This checks
// that what we read of a page (its blocks, frontmatter and MDX flag) is what a parse with all of GFM gives.

function withAllOfGfm(source: string) {
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

function reading({ tree, mdx }: ReturnType<typeof withAllOfGfm>, source: string) {
  const first = tree.children[0]
  return { mdx, frontmatter: first?.type === 'yaml' ? first.value : null, blocks: pageBlocks(tree.children, { source }) }
}

function expectSameReading(source: string, name: string) {
  expect(reading(parseMarkdown(source), source), name).toEqual(reading(withAllOfGfm(source), source))
}

const CASES: Record<string, string> = {
  table: '# T\n\n| Option | Default |\n| --- | --- |\n| `timeout` | 30 s |\n',
  'strikethrough in a heading': '## ~~Old~~ new option\n\nText.\n',
  'task list': '- [ ] write\n- [x] review\n',
  footnote: 'Limits apply.[^1]\n\n[^1]: See the limits page.\n',
  'email inside a JSX element': 'Email <a href="mailto:help@lumen.dev">help@lumen.dev</a> today.\n',
  'bare URL and email': 'See www.lumen.dev/docs or https://lumen.dev, or write to help@lumen.dev.\n',
  'none of them': '---\ntitle: Plain\n---\n\n<Note>\n  A note.\n</Note>\n\n```bash\nlumen init\n```\n',
  'not valid MDX, with a table': 'A stray { brace.\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
}

describe('parseMarkdown reads pages as a parse with all of GFM does', () => {
  for (const [name, source] of Object.entries(CASES)) it(name, () => expectSameReading(source, name))

  it('every page of demo/docs', async () => {
    const { files } = await readDirectory('demo/docs')
    const pages = [...files].filter(([path]) => /\.mdx?$/.test(path))
    expect(pages.length).toBeGreaterThan(25)
    for (const [path, source] of pages) expectSameReading(source, path)
  })

  const CORPUS = '../shared/corpora/mintlify-docs'
  const present = existsSync(`${CORPUS}/docs.json`)
  if (!present) console.log(`skipping the Mintlify equivalence check: ${CORPUS} is absent`)
  it.skipIf(!present)(
    'an eighth of the Mintlify pages, and every one with GFM-only syntax or an email',
    async () => {
      const { files } = await readDirectory(CORPUS)
      const pages = [...files].filter(
        ([path, source], i) => /\.mdx?$/.test(path) && (i % 8 === 0 || /\[\^|~~|\[[ xX]\]|\w@\w+\.\w/.test(source)),
      )
      expect(pages.length).toBeGreaterThan(130)
      for (const [path, source] of pages) expectSameReading(source, path)
    },
    180_000,
  )
})
