import { describe, expect, it } from 'vitest'
import type { MergedChange } from '../../server/automations/changelog/classify.ts'
import { draftChangelog } from '../../server/automations/changelog/draft-changelog.ts'
import { readDocsTree } from '../../server/automations/docs-tree.ts'
import { applyFileEdits } from '../../server/automations/edits.ts'
import { parseMarkdown } from '../../server/search/markdown.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { mintlifyEnglish, mintlifyPresent as hasMintlify } from './corpora.ts'

const mintlifyPresent = hasMintlify('changelog')

/** What a product repository merges in a week: pull requests with labels, and commits pushed directly. */
const WEEK: MergedChange[] = [
  {
    kind: 'pull_request',
    id: '481',
    number: 481,
    title: 'feat(sdk-js): add `flushOnExit` option',
    labels: ['enhancement'],
    url: 'https://github.com/lumen/flags/pull/481',
  },
  {
    kind: 'pull_request',
    id: '482',
    number: 482,
    title: 'Fix stale segment cache after a rule edit',
    labels: ['bug'],
    url: 'https://github.com/lumen/flags/pull/482',
  },
  { kind: 'pull_request', id: '483', number: 483, title: 'chore(deps): bump undici from 6.19 to 6.21', labels: ['dependencies'] },
  {
    kind: 'pull_request',
    id: '484',
    number: 484,
    title: 'docs: explain percentage rollout bucketing',
    files: ['docs/guides/percentage-rollouts.mdx'],
  },
  { kind: 'pull_request', id: '485', number: 485, title: 'Remove the deprecated v1 `/toggle` endpoint', labels: ['breaking-change'] },
  { kind: 'commit', id: '9f1c2e7', title: 'feat(sdk-js): add `flushOnExit` option (#481)' },
  { kind: 'commit', id: '1a2b3c4', title: 'ci: run the Go SDK tests on 1.23' },
  { kind: 'commit', id: '5d6e7f8', title: 'Support {placeholders} in webhook URLs' },
]

describe('draft a changelog entry in demo/docs (a markdown changelog dated by month)', () => {
  it('adds a dated entry above the latest one, grouped, and leaves the rest of the page as it was', async () => {
    const files = (await readDirectory('demo/docs')).files
    const result = draftChangelog(readDocsTree(files), { changes: WEEK, date: '2026-11-23' })
    expect(result.report).toMatchObject({ page: 'changelog.md', created: false, format: 'markdown' })
    const before = files.get('changelog.md')!
    const after = applyFileEdits(files, result.edits).get('changelog.md')!
    expect(result.entry).toBe(
      [
        '## November 2026',
        '',
        '### Added',
        '',
        '- **sdk-js:** Add `flushOnExit` option ([#481](https://github.com/lumen/flags/pull/481))',
        '- Support \\{placeholders\\} in webhook URLs',
        '',
        '### Changed',
        '',
        '- **Breaking:** Remove the deprecated v1 `/toggle` endpoint (#485)',
        '',
        '### Fixed',
        '',
        '- Fix stale segment cache after a rule edit ([#482](https://github.com/lumen/flags/pull/482))',
        '',
        '### Docs',
        '',
        '- Explain percentage rollout bucketing (#484)',
        '',
      ].join('\n'),
    )
    expect(after).toBe(before.replace('## March 2025', `${result.entry}\n## March 2025`))
    expect(parseMarkdown(after).mdx).toBe(true)
    expect(result.report.skipped.map((entry) => entry.reason)).toEqual(['labelled dependencies', 'in pull request #481', 'a ci change'])
  })
})

describe.skipIf(!mintlifyPresent)('draft a changelog entry in the Mintlify docs (<Update> components)', () => {
  it('writes an <Update> entry in the page’s own style that still parses as MDX', async () => {
    const files = await mintlifyEnglish()
    const result = draftChangelog(readDocsTree(files), { changes: WEEK, date: '2026-08-28', version: 'Week 35' })
    expect(result.report).toMatchObject({ page: 'changelog.mdx', created: false, format: 'update-component' })
    const after = applyFileEdits(files, result.edits).get('changelog.mdx')!
    expect(result.entry.split('\n').slice(0, 4)).toEqual([
      '<Update label="August 28, 2026" description="Week 35">',
      '  ## Added',
      '',
      '  - **sdk-js:** Add `flushOnExit` option ([#481](https://github.com/lumen/flags/pull/481))',
    ])
    expect(after.indexOf(result.entry)).toBeLessThan(after.indexOf('<Update label="August 21, 2026"'))
    expect(after.replace(`${result.entry}\n`, '')).toBe(files.get('changelog.mdx'))
    expect(parseMarkdown(after).mdx).toBe(true)
  }, 120_000)
})
