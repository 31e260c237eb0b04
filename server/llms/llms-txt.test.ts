import { describe, expect, test } from 'vitest'
import type { Corpus, PageInfo } from '../search/types.ts'
import { markdownPath, projectLinks } from './links.ts'
import { llmsFullTxt, llmsTxt, sections } from './llms-txt.ts'
import { ProjectConfig } from '../config.ts'

const page = (path: string, groups: string[], extra: Partial<PageInfo> = {}): PageInfo => ({
  path,
  url: `/${path === 'index' ? '' : path}`,
  title: path,
  groups,
  hidden: false,
  inContext: true,
  ...extra,
})

/** A corpus over fixed pages: these tests are about the text format, not about loading docs. */
function corpusOf(pages: PageInfo[], contents: Record<string, string> = {}): Corpus {
  return {
    description: 'Acme docs,\n  on two lines.',
    revision: 'r1',
    search: () => [],
    page: (path) => (contents[path] !== undefined ? { path, content: contents[path]! } : null),
    pages: () => pages,
  }
}

const project = ProjectConfig.parse({ id: 'p', organization: 'o', domain: 'acme.example', docs: { directory: 'x' } })
const links = projectLinks(project, 'https://h.test', { atRoot: true, isSite: true })

describe('llms.txt text', () => {
  test('sections in navigation order, named with the version and language when not the default, hidden pages left out', () => {
    const grouped = sections([
      page('index', ['Guides', 'Start'], { version: 'v2' }),
      page('a', ['Guides', 'Start'], { version: 'v2' }),
      page('old', ['API', 'Reference'], { version: 'v1' }),
      page('new', ['API', 'Reference'], { version: 'v2' }),
      page('secret', ['Guides', 'Start'], { hidden: true, inContext: false }),
      page('loose', []),
      page('fr/a', ['Guides', 'Start'], { version: 'v2', language: 'fr' }),
      page('v1/fr/b', ['Guides', 'Start'], { version: 'v1', language: 'fr' }),
    ])
    expect([...grouped].map(([name, pages]) => [name, pages.map((p) => p.path)])).toEqual([
      ['Guides / Start', ['index', 'a']],
      ['API / Reference (v1)', ['old']],
      ['API / Reference', ['new']],
      ['Guides / Start (fr)', ['fr/a']],
      ['Guides / Start (v1, fr)', ['v1/fr/b']],
      ['Optional', ['loose']],
    ])
  })

  test('escapes link text, keeps descriptions to one line, omits missing descriptions', () => {
    const text = llmsTxt(
      corpusOf([page('a', ['G'], { title: 'Use [brackets]', description: 'One\nline.' }), page('b', ['G'])]),
      links,
      'Acme [Docs]',
    )
    expect(text).toBe(
      [
        '# Acme [Docs]',
        '',
        '> Acme docs, on two lines.',
        '',
        'The full text of every page is at https://h.test/llms-full.txt.',
        '',
        '## G',
        '',
        '- [Use \\[brackets\\]](https://h.test/a.md): One line.',
        '- [b](https://h.test/b.md)',
        '',
      ].join('\n'),
    )
  })

  test('writes titles, names and descriptions without control characters, and links a page once encoded', () => {
    const text = llmsTxt(
      corpusOf([
        page('%2e%2e', ['G\u0000roup'], {
          url: '/%2e%2e',
          title: 'Nul\u0000 esc\u001b[31m del\u007f csi\u009b rlo\u202e',
          description: 'a\u0007b\nc',
        }),
      ]),
      links,
      'Acme\u001b]0;title\u0007',
    )
    expect(text).toContain('# Acme]0;title\n')
    expect(text).toContain('## Group\n')
    expect(text).toContain('- [Nul esc\\[31m del csi rlo](https://h.test/%252e%252e.md): ab c\n')
    const full = llmsFullTxt(
      corpusOf([page('a', ['G'], { title: 'T\u0000' })], { a: '# T\u0000 \u001b[1m\n\nDe\u0000scription.\n\nBody.' }),
      links,
      'Acme',
    )
    expect(full).toContain('# T [1m\nSource: https://h.test/a\n\nDescription.\n\nBody.')
  })

  test('the full text puts each page under its title with its source', () => {
    const text = llmsFullTxt(
      corpusOf([page('a', ['G'], { title: 'A' }), page('b', ['G'], { title: 'B' })], { a: '# A\n\nBody of a.\n', b: 'No heading here.' }),
      links,
      'Acme [Docs]',
    )
    expect(text).toBe(
      '# Acme [Docs]\n\n> Acme docs, on two lines.\n\n---\n\n# A\nSource: https://h.test/a\n\nBody of a.\n\n---\n\n# B\nSource: https://h.test/b\n\nNo heading here.\n',
    )
  })
})

describe('links', () => {
  test('markdown twins of page URLs', () => {
    expect(markdownPath('/')).toBe('/index.md')
    expect(markdownPath('/sdks/go')).toBe('/sdks/go.md')
    expect(markdownPath('/sdks/go/#x')).toBe('/sdks/go.md')
  })

  test('per-project links live under /docs/{domain}; page links use siteUrl when set', () => {
    const external = projectLinks({ ...project, siteUrl: 'https://docs.acme.com/' }, 'https://h.test', { atRoot: false, isSite: false })
    expect(external.markdownOf({ url: '/a b' })).toBe('https://h.test/docs/acme.example/a%20b.md')
    expect(external.section({ url: '/a#x', anchor: 'x' })).toBe('https://docs.acme.com/a#x')
    expect(external.llmsBase).toBe('https://h.test/docs/acme.example')
  })

  test('a project with no HTML site links its pages to their markdown', () => {
    const bare = projectLinks(project, 'https://h.test', { atRoot: false, isSite: false })
    expect(bare.section({ url: '/sdks/go#install', anchor: 'install' })).toBe('https://h.test/docs/acme.example/sdks/go.md#install')
    expect(bare.pageOf({ url: '/' })).toBe('https://h.test/docs/acme.example/index.md')
  })

  test('a page URL is encoded once, whatever its file name holds', () => {
    const bare = projectLinks(project, 'https://h.test', { atRoot: false, isSite: false })
    // A listed page's URL is its file's name whole: `#` and `?` are part of it, not an anchor or a query.
    expect(links.markdownOf({ url: '/%2e%2e' })).toBe('https://h.test/%252e%252e.md')
    expect(links.markdownOf({ url: '/a#b' })).toBe('https://h.test/a%23b.md')
    expect(links.pageOf({ url: '/guides/a?b' })).toBe('https://h.test/guides/a%3Fb')
    expect(links.pageOf({ url: '/100%' })).toBe('https://h.test/100%25')
    expect(bare.pageOf({ url: '/café/f(x)' })).toBe('https://h.test/docs/acme.example/caf%C3%A9/f%28x%29.md')
    // A section's URL ends in its anchor; a `#` of its page's file name is part of the page.
    expect(bare.section({ url: '/a b#install', anchor: 'install' })).toBe('https://h.test/docs/acme.example/a%20b.md#install')
    expect(links.section({ url: '/50%#top', anchor: 'top' })).toBe('https://h.test/50%25#top')
    expect(links.section({ url: '/a#b#top', anchor: 'top' })).toBe('https://h.test/a%23b#top')
    expect(links.section({ url: '/a#b', anchor: '' })).toBe('https://h.test/a%23b')
    // The docs' own links are links already: `/a%20b` is not encoded again.
    expect(bare.resolve('/a%20b#x')).toBe('https://h.test/docs/acme.example/a%20b.md#x')
    expect(links.resolve('/a%20b?q=1#x')).toBe('https://h.test/a%20b?q=1#x')
  })
})

describe('absolute links', () => {
  test('root-relative links become absolute outside code blocks', async () => {
    const { absoluteLinks } = await import('./absolute-links.ts')
    const input = [
      'See [Go](/sdks/go) and ![logo](/logo.png), not [ext](https://x.dev/a) or [cdn](//cdn.x/a).',
      '```md',
      '[keep](/as-is)',
      '```',
      '[ref]: /cli/commands',
    ].join('\n')
    expect(absoluteLinks(input, (path) => `https://docs.test${path}`)).toBe(
      [
        'See [Go](https://docs.test/sdks/go) and ![logo](https://docs.test/logo.png), not [ext](https://x.dev/a) or [cdn](//cdn.x/a).',
        '```md',
        '[keep](/as-is)',
        '```',
        '[ref]: https://docs.test/cli/commands',
      ].join('\n'),
    )
  })

  test('a definition is read on its line or with its link on the next, and long runs of blank or bracket lines pass as they are', async () => {
    const { absoluteLinks } = await import('./absolute-links.ts')
    const resolve = (path: string) => `https://docs.test${path}`
    // As CommonMark reads a definition: its link may follow on the next line, not after a blank line.
    expect(absoluteLinks('  [a]:  /one\n[b]:\n   /two\n[c] /three\n\n[d]:\n\n/four', resolve)).toBe(
      '  [a]:  https://docs.test/one\n[b]:\n   https://docs.test/two\n[c] /three\n\n[d]:\n\n/four',
    )
    // Each of these once made the definition pattern read the rest of the text from every line (40,000 blank lines: 2.7 s).
    for (const run of ['\n'.repeat(100_000), '[a\n'.repeat(50_000), '[\r'.repeat(50_000)]) {
      expect(absoluteLinks(`${run}[end]: /end`, resolve)).toBe(`${run}[end]: https://docs.test/end`)
    }
  })

  test('a markdown example inside a longer fence stays as written, and the prose after it is rewritten', async () => {
    const { absoluteLinks } = await import('./absolute-links.ts')
    const example = ['````mdx', '```md', '[inner](/inner)', '```', '[still example](/example)', '````'].join('\n')
    expect(absoluteLinks(`${example}\n[after](/after)`, (path) => `https://docs.test${path}`)).toBe(
      `${example}\n[after](https://docs.test/after)`,
    )
  })
})
