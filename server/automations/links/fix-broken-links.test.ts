import { describe, expect, it } from 'vitest'
import { parseMarkdown } from '../../search/markdown.ts'
import { readDocsTree } from '../docs-tree.ts'
import { applyFileEdits } from '../edits.ts'
import { pageLinks } from './extract.ts'
import { fixBrokenLinks, rewriteTarget } from './fix-broken-links.ts'
import { matchPage } from './match.ts'

const DOCS_JSON = JSON.stringify({
  name: 'Acme',
  navigation: {
    languages: [
      {
        language: 'en',
        groups: [{ group: 'Start', pages: ['index', 'guides/setup', 'guides/rollouts', 'sdks/overview', 'api/overview', 'cli/index'] }],
      },
      { language: 'fr', groups: [{ group: 'Démarrer', pages: ['fr/index', 'fr/guides/setup'] }] },
    ],
  },
  redirects: [
    { source: '/old/setup', destination: '/guides/setup' },
    { source: '/legacy/:slug*', destination: '/guides/:slug*' },
    { source: '/blog/:slug*', destination: 'https://blog.example.com/:slug*' },
  ],
})

const SETUP = `---
title: "Set up Acme"
---

Intro.

## Install

## Configure the client
`

function site(index: string, extra: Record<string, string> = {}) {
  return new Map(
    Object.entries({
      'docs.json': DOCS_JSON,
      'index.mdx': index,
      'guides/setup.mdx': SETUP,
      'guides/rollouts.mdx': '# Progressive rollouts\n\nRoll out slowly.\n',
      'sdks/overview.mdx': '# SDK overview\n',
      'api/overview.mdx': '# API overview\n',
      'cli/index.mdx': '# CLI\n\nSee [install](./install) and [setup](../guides/setup).\n',
      'cli/install.mdx': '# Install the CLI\n',
      'fr/index.mdx': '# Accueil\n',
      'fr/guides/setup.mdx': '# Installer Acme\n\n## Installer\n',
      ...extra,
    }),
  )
}

function run(index: string, extra: Record<string, string> = {}, options = {}) {
  const files = site(index, extra)
  const result = fixBrokenLinks(readDocsTree(files), options)
  const changed = applyFileEdits(files, result.edits)
  return { files, result, changed, after: (file: string) => changed.get(file) ?? files.get(file)! }
}

describe('fixBrokenLinks', () => {
  it('leaves working links alone and checks absolute, relative, index, anchor and self links', () => {
    const { result } = run(`# Home

## Intro

[a](/guides/setup) [b](guides/setup.mdx#install) [c](/guides/setup/) [d](/cli) [e](/cli/install) [f](#intro)
[g](/guides/setup#configure-the-client) [h](https://example.com/x) [i](mailto:a@b.c) <Card title="SDKs" href="/sdks/overview" />
`)
    expect(result.report.problems).toEqual([])
    expect(result.edits).toEqual([])
    expect(result.report).toMatchObject({ links: 12, checked: 10, skipped: { external: 2 } })
  })

  it('fixes a moved or renamed page, a renamed heading, a redirect, a base path; only the target changes', () => {
    const index = `# Home

## Introduction

Start with [Set up](/guide/setup), then [roll out](./guides/rollout "Rollouts"), see [install](/guides/setup#instal),
[old](/old/setup#install), [legacy](/legacy/rollouts), [base](/docs/guides/setup) and [back](#introductoin).

<Card title="Set up Acme" href="/setup/acme">Card text.</Card>

[setup-ref]: /guides/setp
Read the [guide][setup-ref].
`
    const { result, after } = run(index)
    const fixes = result.report.problems.map((problem) => [problem.url, problem.fixedTo, problem.reason])
    expect(fixes).toEqual([
      ['/guide/setup', '/guides/setup', 'moved'],
      ['./guides/rollout', './guides/rollouts', 'moved'],
      ['/guides/setup#instal', '/guides/setup#install', 'anchor'],
      ['/old/setup#install', '/guides/setup#install', 'redirect'],
      ['/legacy/rollouts', '/guides/rollouts', 'redirect'],
      ['/docs/guides/setup', '/guides/setup', 'base-path'],
      ['#introductoin', '#introduction', 'anchor'],
      ['/setup/acme', '/guides/setup', 'moved'],
      ['/guides/setp', '/guides/setup', 'moved'],
    ])
    const expected = index
      .replace('(/guide/setup)', '(/guides/setup)')
      .replace('./guides/rollout "', './guides/rollouts "')
      .replace('#instal)', '#install)')
      .replace('/old/setup#install', '/guides/setup#install')
      .replace('/legacy/rollouts', '/guides/rollouts')
      .replace('/docs/guides/setup', '/guides/setup')
      .replace('#introductoin', '#introduction')
      .replace('href="/setup/acme"', 'href="/guides/setup"')
      .replace('/guides/setp', '/guides/setup')
    expect(after('index.mdx')).toBe(expected)
    expect(result.report).toMatchObject({ fixed: 9, unfixed: 0 })
    // Fixed once, the docs check clean.
    const again = fixBrokenLinks(readDocsTree(new Map([...site(''), ['index.mdx', expected]])))
    expect(again.report.problems).toEqual([])
  })

  it('leaves ambiguous and unmatched links alone, with the closest pages for a person', () => {
    const { result } = run('# Home\n\nSee the [overview](/overview) and [the moon](/astronomy/moon-landing).\n')
    expect(result.edits).toEqual([])
    const [overview, moon] = result.report.problems
    expect(overview).toMatchObject({ url: '/overview', problem: 'missing-page', note: 'two or more pages fit equally well', line: 3 })
    expect(overview!.candidates!.map((candidate) => candidate.path).sort()).toEqual(['api/overview', 'sdks/overview'])
    expect(moon).toMatchObject({ url: '/astronomy/moon-landing', note: 'no page is close enough' })
    expect(result.summary).toContain('**Left for a person (2):**')
    expect(result.summary).toContain(
      '`index.mdx:3` `/overview`: missing page; two or more pages fit equally well. Closest: `api/overview` (1), `sdks/overview` (1).',
    )
  })

  it('fixes a link within its language', () => {
    const { result } = run('# Home\n', { 'fr/index.mdx': '# Accueil\n\n[installer](/fr/guide/setup#installer)\n' })
    expect(result.report.problems).toMatchObject([{ fixedTo: '/fr/guides/setup#installer', reason: 'moved' }])
  })

  it('keeps a link whose target is written with escapes, and says how to fix it', () => {
    const { result } = run('# Home\n\n[a](/guide\\_setup)\n')
    expect(result.edits).toEqual([])
    expect(result.report.problems[0]).toMatchObject({
      url: '/guide_setup',
      note: 'written with escapes or entities; change it by hand to /guides/setup',
    })
  })

  it('reads anchors of imported snippets and Mintlify components, and slugs that differ only in punctuation', () => {
    const { result } = run(
      `import Shared from '/snippets/shared.mdx'

# Home

## llms-full.txt

<Shared />

<Update label="May 2025">x</Update>
<Tab title="OAuth 2.0">y</Tab>
<ResponseField name="icons.library">z</ResponseField>

[a](#shared-heading) [b](#may-2025) [c](#oauth-2-0) [d](#param-icons-library) [e](#llms-full-txt)
`,
      { 'snippets/shared.mdx': '## Shared heading\n\nSee [setup](/guides/setup).\n' },
    )
    expect(result.report.problems).toEqual([])
    expect(result.report.files).toBe(10)
  })

  it('checks files that are not pages only when their paths are given', () => {
    const index = '# Home\n\n[spec](/files/openapi.yaml) [logo](/images/logo.png)\n'
    expect(run(index).result.report.skipped.assets).toBe(2)
    const { result } = run(index, {}, { assets: ['files/openapi.yaml'] })
    expect(result.report.problems).toMatchObject([{ url: '/images/logo.png', problem: 'missing-file' }])
  })

  it('writes a summary for the pull request body', () => {
    const { result } = run('# Home\n\n[a](/guide/setup)\n')
    expect(result.summary).toBe(
      [
        'Checked 3 internal links in 9 files: 1 broken, 1 fixed.',
        '',
        '| File | Link | Now | Why |',
        '| --- | --- | --- | --- |',
        '| `index.mdx:3` | `/guide/setup` | `/guides/setup` | page moved or renamed (match 0.959) |',
      ].join('\n'),
    )
  })
})

describe('rewriteTarget', () => {
  it('writes the new target the way the old one was written', () => {
    expect(rewriteTarget('/a/b', 'x.mdx', 'guides/setup', 'guides/setup.mdx', undefined)).toBe('/guides/setup')
    expect(rewriteTarget('/a/b/?q=1#old', 'x.mdx', 'guides/setup', 'guides/setup.mdx', 'install')).toBe('/guides/setup/?q=1#install')
    expect(rewriteTarget('/a/b.md', 'x.mdx', 'guides/setup', 'guides/setup.mdx', undefined)).toBe('/guides/setup.mdx')
    expect(rewriteTarget('/a', 'x.mdx', 'cli/index', 'cli/index.mdx', undefined)).toBe('/cli')
    expect(rewriteTarget('./b', 'guides/a.mdx', 'guides/setup', 'guides/setup.mdx', undefined)).toBe('./setup')
    expect(rewriteTarget('../b', 'guides/deep/a.mdx', 'sdks/go', 'sdks/go.mdx', undefined)).toBe('../../sdks/go')
    expect(rewriteTarget('b', 'guides/a.mdx', 'guides/x/y', 'guides/x/y.mdx', undefined)).toBe('x/y')
    expect(rewriteTarget('#a', 'guides/a.mdx', 'guides/a', 'guides/a.mdx', 'b')).toBe('#b')
  })
})

describe('matchPage', () => {
  const pages = [
    { path: 'guides/setup', title: 'Set up Acme' },
    { path: 'guides/percentage-rollouts', title: 'Percentage rollouts' },
    { path: 'customize/custom-domain', title: 'Custom domain' },
    { path: 'sdks/overview', title: 'SDKs' },
    { path: 'api/overview', title: 'API' },
  ]
  it('finds a page moved to another folder, renamed a little, or named by the link text', () => {
    expect(matchPage('settings/custom-domain', {}, pages).best).toEqual({ path: 'customize/custom-domain', score: 0.9 })
    expect(matchPage('guides/percentage-rollout', {}, pages).best?.path).toBe('guides/percentage-rollouts')
    expect(matchPage('guides/quickstrat', { text: 'Set up Acme' }, pages).best?.path).toBe('guides/setup')
  })
  it('finds none when two pages fit equally or none fits well', () => {
    expect(matchPage('overview', {}, pages).best).toBeUndefined()
    expect(matchPage('billing/invoices', { text: 'Invoices' }, pages).best).toBeUndefined()
  })
})

describe('pageLinks', () => {
  it('finds every written target with its exact offsets', () => {
    const source = [
      '[a](</with space> "t") [b](/p(1)) [c]: /def',
      '',
      '<Card href=\'/card\' title="Card">x</Card> `[not](/code)`',
      '',
      '```md',
      '[not](/fenced)',
      '```',
    ].join('\n')
    const { links } = pageLinks(parseMarkdown(source).tree, source)
    expect(links.map((link) => [link.url, source.slice(link.start, link.end), link.kind, link.editable])).toEqual([
      ['/with space', '/with space', 'markdown', true],
      ['/p(1)', '/p(1)', 'markdown', true],
      ['/card', '/card', 'jsx', true],
    ])
    const definitions = '[x]: /def "title"\n\nSee [x].\n'
    expect(pageLinks(parseMarkdown(definitions).tree, definitions).links).toMatchObject([
      {
        url: '/def',
        start: 5,
        end: 9,
        kind: 'definition',
      },
    ])
  })

  it('reads `<a href>` and `id` attributes of raw HTML as a browser does, a `>` inside a quoted value included', () => {
    const html = (body: string) => {
      const source = `<div>\n${body}<br>\n</div>\n`
      const { links, anchors } = pageLinks(parseMarkdown(source).tree, source)
      return { links: links.map((link) => [link.url, source.slice(link.start, link.end), link.editable]), anchors: [...anchors] }
    }
    expect(
      html('<a class="x" href="/guides/setup" id="top">Setup</a> <A\n  HREF = \'/a&amp;b\'>x</A> <a title="a > b" href="/c">c</a>'),
    ).toEqual({
      links: [
        ['/guides/setup', '/guides/setup', true],
        ['/a&b', '/a&amp;b', false],
        ['/c', '/c', true],
      ],
      anchors: ['top'],
    })
    expect(html('<a href="/x>y" id=\'x>y\'> <span data-x="1>" id="inner"> <p id=bare>')).toEqual({
      links: [['/x>y', '/x>y', true]],
      anchors: ['x>y', 'inner'],
    })
    // An unquoted href is not an edit we can make safely; a quoted value that never closes drops its tag, as browsers do.
    expect(html('<a href=/plain id="p">p</a> <a id="q" href="/lost>x')).toEqual({ links: [], anchors: ['p'] })
  })

  it('reads raw HTML of many unclosed tags in time linear in it', () => {
    // The patterns read the tag again to its `>` from each `<a` (or `<d`) inside it.
    const source = `<div>\n${'<a\tA'.repeat(50_000)} href="/guides/setup" ${'<d=0'.repeat(50_000)} id="top">\n</div>\n`
    const { links, anchors } = pageLinks(parseMarkdown(source).tree, source)
    expect(links.map((link) => [link.url, source.slice(link.start, link.end)])).toEqual([['/guides/setup', '/guides/setup']])
    expect([...anchors]).toEqual(['top'])
  })
})
