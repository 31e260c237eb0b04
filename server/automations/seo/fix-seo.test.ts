import { describe as group, expect, it } from 'vitest'
import { readDocsTree } from '../docs-tree.ts'
import { applyEdits, applyFileEdits } from '../edits.ts'
import { describe, fixSeo } from './fix-seo.ts'
import { setFrontmatterFields } from './frontmatter-fields.ts'

const site = (pages: Record<string, string>, config: Record<string, unknown> = {}) =>
  readDocsTree(
    new Map(
      Object.entries({
        'docs.json': JSON.stringify({ navigation: { pages: Object.keys(pages).map((file) => file.replace(/\.mdx?$/, '')) }, ...config }),
        ...pages,
      }),
    ),
  )

const PARAGRAPH =
  'Webhooks send an HTTP request to your server when a flag changes. Each request is signed, so you can check it came from us. ' +
  'Retries follow an exponential backoff for up to three days.'

group('fixSeo', () => {
  it('fills a missing title from the first heading and a description from the first real paragraph', () => {
    const text = `---\nicon: "bolt"\n---\n\n# Webhooks\n\n<Note>An aside that is not the point of the page, however long it runs on.</Note>\n\nSee below.\n\n${PARAGRAPH}\n`
    const tree = site({ 'webhooks.mdx': text })
    const { edits, report } = fixSeo(tree)
    const after = applyFileEdits(tree.files, edits).get('webhooks.mdx')!
    expect(after).toBe(text.replace('---\nicon:', `---\ntitle: "Webhooks"\ndescription: "${describe(PARAGRAPH, 160)}"\nicon:`))
    expect(describe(PARAGRAPH, 160)).toBe(
      'Webhooks send an HTTP request to your server when a flag changes. Each request is signed, so you can check it came from us.',
    )
    expect(report.changes.map((change) => [change.field, change.from])).toEqual([
      ['title', 'heading'],
      ['description', 'paragraph'],
    ])
  })

  it('adds frontmatter to a page that has none, strips markdown, and only offers a title made of the file name', () => {
    const text = 'Use **bold** `code` and [links](/x) in a sentence that is long enough to describe.\r\n'
    const tree = site({ 'guides/getting-started.md': text })
    const { edits, report } = fixSeo(tree)
    const after = applyFileEdits(tree.files, edits).get('guides/getting-started.md')!
    expect(after).toBe('---\r\ndescription: "Use bold code and links in a sentence that is long enough to describe."\r\n---\r\n\r\n' + text)
    expect(report.left).toEqual([
      {
        file: 'guides/getting-started.md',
        field: 'title',
        problem: 'missing',
        note: 'the page has no heading or sidebar title to take it from; its file name reads "Getting started"',
      },
    ])
  })

  it('replaces a duplicate description with the page’s own paragraph, the page it was written for keeping it', () => {
    const shared = 'Webhooks send an HTTP request to your server when a flag changes.'
    const tree = site({
      'webhooks.mdx': `---\ntitle: "Webhooks"\ndescription: "${shared}"\n---\n\n${PARAGRAPH}\n`,
      'audit.mdx': `---\ntitle: "Audit log"\ndescription: "${shared}"\n---\n\nThe audit log records every change anyone makes to flags and settings.\n`,
    })
    const { edits, report } = fixSeo(tree)
    expect(report.changes).toEqual([
      {
        file: 'audit.mdx',
        field: 'description',
        problem: 'duplicate',
        before: shared,
        after: 'The audit log records every change anyone makes to flags and settings.',
        from: 'paragraph',
      },
    ])
    expect(edits.map((edit) => edit.path)).toEqual(['audit.mdx'])
  })

  it('lists a duplicate title with no distinct heading, and skips noindex and generated API pages', () => {
    const tree = site({
      'a.mdx': '---\ntitle: "Overview"\ndescription: "A."\n---\n\nText.\n',
      'b.mdx': '---\ntitle: "Overview"\ndescription: "B."\n---\n\n# SDK overview\n\nText.\n',
      'c.mdx': '---\nnoindex: true\n---\n\nNo title here, on purpose, and nobody minds it.\n',
      'd.mdx': '---\nopenapi: "GET /flags"\n---\n',
    })
    const { report } = fixSeo(tree)
    expect(report.pages).toBe(2)
    expect(report.changes).toMatchObject([{ file: 'b.mdx', field: 'title', after: 'SDK overview', before: 'Overview' }])
    expect(report.left).toMatchObject([{ file: 'a.mdx', field: 'title', problem: 'duplicate' }])
  })

  it('checks only pages in the navigation unless the site indexes every page', () => {
    const pages = { 'listed.mdx': '# Listed\n\nA paragraph about the listed page that is long enough.\n' }
    const files = { ...pages, 'hidden.mdx': '# Hidden\n\nA paragraph about the hidden page that is long enough.\n' }
    const navigation = { navigation: { pages: ['listed'] } }
    const make = (config: Record<string, unknown>) =>
      readDocsTree(new Map(Object.entries({ 'docs.json': JSON.stringify(config), ...files })))
    expect(fixSeo(make(navigation)).report.pages).toBe(1)
    expect(fixSeo(make({ ...navigation, seo: { indexing: 'all' } })).report.pages).toBe(2)
  })
})

group('describe', () => {
  it('keeps whole sentences, ended by marks and closing quotes or brackets, up to the length', () => {
    expect(describe('First one. Second one!) Third "one"? 4th.', 30)).toBe('First one. Second one!)')
    expect(describe('Wait... What?! Yes.', 11)).toBe('Wait...')
    expect(describe('A v1.2 release. it goes on.', 20)).toBe('A v1.2 release. it…')
  })

  it('cuts a long first sentence at a word, without the spaces and punctuation before the cut', () => {
    expect(describe('Alpha beta, gamma delta epsilon', 12)).toBe('Alpha beta…')
    expect(describe('Alphabetagamma—\u3000\t,;delta', 20)).toBe('Alphabetagamma…')
  })

  it('reads long runs of marks and spaces in time linear in them', () => {
    // Each was read again from every mark or space of the run.
    const marks = `Stop${'!'.repeat(100_000)}x and more.`
    expect(describe(marks, 200_000)).toBe(marks)
    expect(describe(`${',\t'.repeat(50_000)}x`, 100_000)).toBe('…')
  })
})

group('setFrontmatterFields', () => {
  it('replaces a folded value whole and keeps comments, order and other keys', () => {
    const text = '---\n# kept\ntitle: Old\ndescription: >\n  folded\n  text\nicon: x\n---\nBody\n'
    const edits = setFrontmatterFields(text, [
      ['description', 'New "one"'],
      ['sidebarTitle', 'Side'],
    ])!
    expect(applyEdits(text, edits)).toBe(
      '---\n# kept\ntitle: Old\nsidebarTitle: "Side"\ndescription: "New \\"one\\""\nicon: x\n---\nBody\n',
    )
  })
  it('refuses frontmatter it cannot read', () => {
    expect(setFrontmatterFields('---\ntitle: [unclosed\n---\n', [['title', 'x']])).toBeUndefined()
  })
})
