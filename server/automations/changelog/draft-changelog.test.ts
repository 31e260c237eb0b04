import { describe, expect, it } from 'vitest'
import { parsePage } from '../../search/parse-page.ts'
import { readDocsTree } from '../docs-tree.ts'
import { applyFileEdits } from '../edits.ts'
import { classifyChanges, type MergedChange } from './classify.ts'
import { draftChangelog, findChangelogPage } from './draft-changelog.ts'

const pr = (number: number, title: string, extra: Partial<MergedChange> = {}): MergedChange => ({
  kind: 'pull_request',
  id: String(number),
  number,
  title,
  url: `https://git.example.com/acme/app/pull/${number}`,
  ...extra,
})
const commit = (id: string, title: string, extra: Partial<MergedChange> = {}): MergedChange => ({ kind: 'commit', id, title, ...extra })

const CHANGES: MergedChange[] = [
  pr(12, 'feat(cli): add the `acme eval` command'),
  pr(13, 'Fix retries when the token expired', { labels: ['bug'] }),
  pr(14, 'Document webhook signatures', { files: ['docs/webhooks.mdx'] }),
  pr(15, 'chore: bump dependencies'),
  pr(16, 'Rework the dashboard layout', { labels: ['skip-changelog'] }),
  pr(17, 'refactor!: rename the `flags` endpoint to `features`'),
  commit('a1b2c3', 'feat: add the `acme eval` command (#12)'),
  commit('d4e5f6', 'Merge pull request #18 from acme/support-cards', { body: 'Support <Card> in {templates}\n\nLong text.' }),
  commit('0a0b0c', 'Tune the cache size', { files: ['src/cache.ts'] }),
]

describe('classifyChanges', () => {
  it('groups by labels, conventional types, wording and files, and leaves out internal and repeated changes', () => {
    const { items, skipped } = classifyChanges(CHANGES)
    expect(items.map((item) => [item.group, item.text])).toEqual([
      ['Added', '**cli:** Add the `acme eval` command ([#12](https://git.example.com/acme/app/pull/12))'],
      ['Fixed', 'Fix retries when the token expired ([#13](https://git.example.com/acme/app/pull/13))'],
      ['Docs', 'Document webhook signatures ([#14](https://git.example.com/acme/app/pull/14))'],
      ['Changed', '**Breaking:** Rename the `flags` endpoint to `features` ([#17](https://git.example.com/acme/app/pull/17))'],
      ['Added', 'Support \\<Card\\> in \\{templates\\} (#18)'],
      ['Changed', 'Tune the cache size'],
    ])
    // A title's own backslash before a tag is escaped too: else the escape escapes it, and the tag opens.
    const [backslashed] = classifyChanges([pr(19, 'Support \\<Card> and \\{x}')]).items
    expect(backslashed!.text).toBe('Support \\\\\\<Card\\> and \\\\\\{x\\} ([#19](https://git.example.com/acme/app/pull/19))')
    expect(parsePage('changelog', `# Changelog\n\n- ${backslashed!.text}\n`).mdx).toBe(true)
    expect(skipped.map((entry) => [entry.change.id, entry.reason])).toEqual([
      ['15', 'a chore change'],
      ['16', 'labelled skip-changelog'],
      ['a1b2c3', 'in pull request #12'],
    ])
  })

  it('reads a pull request number and a conventional subject around any spaces, in time linear in them', () => {
    const { items, skipped } = classifyChanges([
      pr(31, 'Listed'),
      commit('c1', 'fix(api):  \t retry on timeouts \t (#31)'),
      commit('c2', 'fix(api):  \t retry on timeouts \t (#32) '),
      commit('c3', 'feat:   '),
    ])
    expect(skipped.map((entry) => [entry.change.id, entry.reason])).toEqual([['c1', 'in pull request #31']])
    expect(items.map((item) => item.text)).toEqual([
      'Listed ([#31](https://git.example.com/acme/app/pull/31))',
      '**api:** Retry on timeouts (#32)',
      'Feat:',
    ])
    // Long runs of spaces that the subject or a `(#1)` does not follow: each was read again from every space of it.
    const spaces = ' \t'.repeat(50_000)
    const long = classifyChanges([
      commit('c4', `feat:${spaces}):\n(`),
      commit('c5', `Tune${spaces}the cache`),
      commit('c6', `fix:${spaces}a crash${spaces}(#7)`),
    ])
    expect(long.items.map((item) => item.text)).toEqual([`Feat:${spaces}):\n(`, `Tune${spaces}the cache`, 'A crash (#7)'])
  })
})

const DOCS_JSON = JSON.stringify({ navigation: { groups: [{ group: 'Start', pages: ['index', 'updates'] }] } }, null, 2) + '\n'

describe('draftChangelog', () => {
  it('writes a Mintlify <Update> entry at the top, in the page’s date style and indentation', () => {
    const text =
      '---\ntitle: "Product updates"\n---\n\nIntro.\n\n<Update label="March 4, 2026" tags={["New"]}>\n    ### Old\n\n    - Old item\n</Update>\n'
    const tree = readDocsTree(
      new Map([
        ['docs.json', DOCS_JSON],
        ['index.mdx', '# Home\n'],
        ['updates.mdx', text],
      ]),
    )
    const result = draftChangelog(tree, { changes: CHANGES.slice(0, 3), date: '2026-11-23', version: 'v2.1.0' })
    const after = applyFileEdits(tree.files, result.edits).get('updates.mdx')!
    expect(after).toBe(
      text.replace(
        '<Update label="March 4, 2026"',
        [
          '<Update label="November 23, 2026" description="v2.1.0">',
          '    ### Added',
          '',
          '    - **cli:** Add the `acme eval` command ([#12](https://git.example.com/acme/app/pull/12))',
          '',
          '    ### Fixed',
          '',
          '    - Fix retries when the token expired ([#13](https://git.example.com/acme/app/pull/13))',
          '',
          '    ### Docs',
          '',
          '    - Document webhook signatures ([#14](https://git.example.com/acme/app/pull/14))',
          '</Update>',
          '',
          '<Update label="March 4, 2026"',
        ].join('\n'),
      ),
    )
    expect(result.report).toMatchObject({ page: 'updates.mdx', created: false, format: 'update-component' })
  })

  it('writes a dated markdown heading in a markdown changelog, and joins this month’s entry when dates are months', () => {
    const iso = '# Changelog\n\n## 2026-10-01\n\n- Older.\n'
    const isoTree = readDocsTree(new Map([['CHANGELOG.md', iso]]))
    const isoResult = draftChangelog(isoTree, { changes: [pr(1, 'Add search')], date: '2026-11-23' })
    expect(applyFileEdits(isoTree.files, isoResult.edits).get('CHANGELOG.md')).toBe(
      '# Changelog\n\n## 2026-11-23\n\n### Added\n\n- Add search ([#1](https://git.example.com/acme/app/pull/1))\n\n## 2026-10-01\n\n- Older.\n',
    )
    const months = '---\ntitle: "Changelog"\n---\n\nIntro.\n\n## November 2026\n\n### Earlier this month\n\n- Older.\n'
    const monthTree = readDocsTree(new Map([['changelog.md', months]]))
    const monthResult = draftChangelog(monthTree, { changes: [pr(2, 'Fix login')], date: '2026-11-23' })
    expect(applyFileEdits(monthTree.files, monthResult.edits).get('changelog.md')).toBe(
      months.replace(
        '## November 2026\n',
        '## November 2026\n\n### Fixed\n\n- Fix login ([#2](https://git.example.com/acme/app/pull/2))\n',
      ),
    )
  })

  it('proposes a new changelog.mdx listed in docs.json when the docs have no changelog', () => {
    const files = new Map([
      ['docs.json', DOCS_JSON.replace(', "updates"', '').replace('"updates"', '"guide"')],
      ['index.mdx', '# Home\n'],
    ])
    const tree = readDocsTree(files)
    const result = draftChangelog(tree, { changes: [pr(3, 'Add dark mode')], date: '2026-01-05' })
    const after = applyFileEdits(files, result.edits)
    expect(after.get('changelog.mdx')).toBe(
      '---\ntitle: "Changelog"\ndescription: "Notable changes, newest first."\n---\n\n<Update label="January 5, 2026">\n  ## Added\n\n  - Add dark mode ([#3](https://git.example.com/acme/app/pull/3))\n</Update>\n',
    )
    expect(JSON.parse(after.get('docs.json')!).navigation.groups[0].pages).toEqual(['index', 'guide', 'changelog'])
    expect(result.report).toMatchObject({ page: 'changelog.mdx', created: true })
  })

  it('changes nothing and says why when nothing merged belongs in a changelog', () => {
    const tree = readDocsTree(new Map([['changelog.md', '# Changelog\n']]))
    const result = draftChangelog(tree, { changes: [pr(4, 'ci: cache node_modules')], date: '2026-01-05' })
    expect(result.edits).toEqual([])
    expect(result.summary).toMatch(/^Nothing merged since the last run belongs in the changelog/)
  })

  it('finds the changelog by name or title, the default language first', () => {
    const tree = readDocsTree(
      new Map([
        [
          'docs.json',
          JSON.stringify({
            navigation: {
              languages: [
                { language: 'en', pages: ['index'] },
                { language: 'fr', pages: ['fr/changelog'] },
              ],
            },
          }),
        ],
        ['fr/changelog.mdx', '# Journal\n'],
        ['releases/whats-new.mdx', '# New\n'],
        ['about.mdx', '---\ntitle: "Release notes"\n---\n'],
      ]),
    )
    expect(findChangelogPage(tree)?.file).toBe('releases/whats-new.mdx')
  })

  const updates = (text: string) =>
    draftChangelog(readDocsTree(new Map([['updates.mdx', text]])), { changes: [pr(1, 'Add search')], date: '2026-11-23' }).entry

  it('reads the first <Update> that ends its line: attributes on several lines, a `>` in the label, blank lines after', () => {
    expect(updates('<Update\n  label="August 2026"\n  description="v1"\n>\n\n\t## Old\n</Update>\n')).toBe(
      '<Update label="November 2026">\n\t## Added\n\n\t- Add search ([#1](https://git.example.com/acme/app/pull/1))\n</Update>\n',
    )
    expect(updates('<Update label="v2 -> v3">\r\n   \r\n    ### Old\r\n</Update>\r\n')).toBe(
      '<Update label="2026-11-23">\r\n    ### Added\r\n\r\n    - Add search ([#1](https://git.example.com/acme/app/pull/1))\r\n</Update>\r\n',
    )
    // One that does not end its line is passed over (and so is a label whose value closes on another line).
    expect(updates('<Update label="v1">Inline</Update>\n<Update label="March\n4">\n<Update label="March 4, 2026">\n    ### Old\n')).toBe(
      '<Update label="November 23, 2026">\n    ### Added\n\n    - Add search ([#1](https://git.example.com/acme/app/pull/1))\n</Update>\n',
    )
  })

  it('reads a page of long tags and headings in time linear in it', () => {
    // Each `label=` and each quote of the first tag was read to its `>` again, and each `<Update` line inside it.
    const tag = `<Update label="x"${' label="y"'.repeat(50_000)}>Inline</Update>\n${'<Update label="z"\n'.repeat(20_000)}>inline\n`
    expect(updates(`${tag}<Update label="March 4, 2026">\n    ### Old\n`)).toBe(
      '<Update label="November 23, 2026">\n    ### Added\n\n    - Add search ([#1](https://git.example.com/acme/app/pull/1))\n</Update>\n',
    )
    // A heading's spaces were read again from each of them when text followed; trailing spaces are not its text.
    const markdown = (heading: string) =>
      draftChangelog(readDocsTree(new Map([['changelog.md', `# Changelog\n\n${heading}\n\n- Older.\n`]])), {
        changes: [pr(1, 'Add search')],
        date: '2026-11-23',
      }).edits[0]!.edits[0]!.text
    expect(markdown(`## November 2026${' \t'.repeat(50_000)}`)).toBe(
      '\n### Added\n\n- Add search ([#1](https://git.example.com/acme/app/pull/1))\n',
    )
    expect(markdown(`### November 2026${' '.repeat(100_000)}x`)).toBe(
      '### November 2026\n\n#### Added\n\n- Add search ([#1](https://git.example.com/acme/app/pull/1))\n\n',
    )
  })
})
