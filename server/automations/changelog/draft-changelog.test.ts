import { describe, expect, it } from 'vitest'
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
    expect(skipped.map((entry) => [entry.change.id, entry.reason])).toEqual([
      ['15', 'a chore change'],
      ['16', 'labelled skip-changelog'],
      ['a1b2c3', 'in pull request #12'],
    ])
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
})
