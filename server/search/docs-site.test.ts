import { describe, expect, it } from 'vitest'
import { loadDocsSite, looksBinary, readDocsSite, resolveImport } from './docs-site.ts'

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

  it('leaves out a page file that is not text (random bytes, UTF-16), on this thread and in workers alike', async () => {
    // Random bytes as a source decodes them: most do not decode to UTF-8.
    let seed = 7
    const bytes = Uint8Array.from({ length: 200_000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) & 0xff)
    const binary = new TextDecoder().decode(bytes)
    const utf16 = new TextDecoder('latin1').decode(new Uint16Array([...'# Title\n\nText.'].map((c) => c.charCodeAt(0))))
    expect(looksBinary(binary)).toBe(true)
    expect(looksBinary(utf16)).toBe(true)
    expect(looksBinary('# Café\n\nA page with one stray \uFFFD and accents: é, ü, 日本語.')).toBe(false)
    const site = readDocsSite(files({ ...base, 'image.mdx': binary, 'wide.md': utf16 }))
    expect([...site.pages.keys()].sort()).toEqual(['a', 'b', 'c/index'])
    // Enough pages to be parsed in worker threads: the same pages are left out.
    const many = Object.fromEntries(Array.from({ length: 320 }, (_, i) => [`p${i}.mdx`, `# Page ${i}\n\nText ${i}.\n`]))
    const loaded = await loadDocsSite(files({ ...many, 'image.mdx': binary }))
    expect(loaded.pages.size).toBe(320)
    expect(loaded.pages.has('image')).toBe(false)
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
