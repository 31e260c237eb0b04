import { describe, expect, it } from 'vitest'
import { readDocsSite, resolveImport } from './docs-site.ts'

const files = (entries: Record<string, string>) => ({ files: new Map(Object.entries(entries)), revision: 'r' })

describe('readDocsSite', () => {
  const base = {
    'docs.json': JSON.stringify({ name: 'S', navigation: { groups: [{ group: 'G', pages: ['a', 'b'] }] } }),
    'a.mdx': "import Shared from '/snippets/shared.mdx'\n\n# A\n\n<Shared />\n",
    'b.mdx': '# B\n\nPlain.\n',
    'c/index.md': '# C\n\nOff the navigation.\n',
    'snippets/shared.mdx': 'Shared text one.\n',
  }

  it('reads pages, inlines snippets, and does not serve snippets as pages', () => {
    const site = readDocsSite(files(base))
    expect([...site.pages.keys()].sort()).toEqual(['a', 'b', 'c/index'])
    expect(site.pages.get('a')!.markdown).toContain('Shared text one.')
    expect(site.pages.get('c/index')).toMatchObject({ url: '/c', nav: undefined })
    expect(site.pages.get('b')!.nav?.groups).toEqual(['G'])
  })

  it('reuses parsed pages whose text did not change, and re-parses all when a snippet changes', () => {
    const first = readDocsSite(files(base))
    const second = readDocsSite(files({ ...base, 'b.mdx': '# B\n\nChanged.\n' }), first)
    expect(second.parsed.pages.get('a.mdx')!.page).toBe(first.parsed.pages.get('a.mdx')!.page)
    // The cache keeps a fingerprint of each file, not the file: the text is held once, as the page's markdown.
    expect(first.parsed.pages.get('b.mdx')!.fingerprint).toMatch(/^\w+\.\w+\.\w+$/)
    expect([...first.parsed.imports.values()].every((print) => print === undefined || !print.includes(' '))).toBe(true)
    expect(second.parsed.pages.get('b.mdx')!.page).not.toBe(first.parsed.pages.get('b.mdx')!.page)
    expect(second.pages.get('b')!.markdown).toContain('Changed.')
    const third = readDocsSite(files({ ...base, 'b.mdx': '# B\n\nChanged.\n', 'snippets/shared.mdx': 'Shared text two.\n' }), second)
    expect(third.pages.get('a')!.markdown).toContain('Shared text two.')
  })

  it('resolves imports from the root or the importing page', () => {
    expect(resolveImport('guides/a.mdx', '/snippets/x.mdx')).toBe('snippets/x.mdx')
    expect(resolveImport('guides/a.mdx', './x.mdx')).toBe('guides/x.mdx')
    expect(resolveImport('guides/deep/a.mdx', '../x.mdx')).toBe('guides/x.mdx')
  })
})
