import { beforeAll, describe, expect, it } from 'vitest'
import { readDocsTree } from '../../server/automations/docs-tree.ts'
import { applyFileEdits } from '../../server/automations/edits.ts'
import { fixBrokenLinks } from '../../server/automations/links/fix-broken-links.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { mintlifyEnglish, mintlifyPresent as hasMintlify } from './corpora.ts'

const mintlifyPresent = hasMintlify('broken-link')

describe('fix broken links on demo/docs', () => {
  let files: Map<string, string>
  beforeAll(async () => {
    files = (await readDirectory('demo/docs')).files
  })

  it('finds nothing broken in the demo as shipped', () => {
    const { report, edits } = fixBrokenLinks(readDocsTree(files))
    expect(report.checked).toBeGreaterThan(100)
    expect(report.problems).toEqual([])
    expect(edits).toEqual([])
  })

  it('fixes planted breakages exactly and lists the one it cannot fix', () => {
    const planted = new Map(files)
    // A page moved to another folder (the navigation moved with it, the links did not).
    planted.delete('concepts/segments.mdx')
    planted.set('targeting/segments.mdx', files.get('concepts/segments.mdx')!)
    planted.set('docs.json', files.get('docs.json')!.replace('"concepts/segments"', '"targeting/segments"'))
    // A heading renamed under a link to it.
    planted.set('guides/testing.mdx', files.get('guides/testing.mdx')!.replace('## Test data sources', '## Test data source'))
    // A typo in a path, a relative link to a misspelled page, and a link that could mean two pages.
    const index = files.get('index.mdx')!
    planted.set(
      'index.mdx',
      index.replace('[Segments](/concepts/segments)', '[Segments](/concepts/segments) ([start](/quickstrat), [overview](/overview))'),
    )
    const go = files.get('sdks/go.mdx')!
    planted.set('sdks/go.mdx', `${go}\nSee also the [Python SDK](./pyhton).\n`)

    const { report, edits } = fixBrokenLinks(readDocsTree(planted))
    const changed = applyFileEdits(planted, edits)
    const after = (file: string) => changed.get(file) ?? planted.get(file)!

    expect(report.problems.filter((problem) => !problem.fixedTo).map((problem) => [problem.file, problem.url])).toEqual([
      ['index.mdx', '/overview'],
    ])
    expect(report.fixed).toBe(report.problems.length - 1)
    // Every other file is byte-identical to the demo but for the link targets.
    for (const file of ['concepts/targeting.mdx', 'api-reference/v2/segments.mdx', 'changelog.md']) {
      expect(after(file)).toBe(files.get(file)!.replace('(/concepts/segments)', '(/targeting/segments)'))
    }
    expect(after('sdks/go.mdx')).toBe(
      `${go.replace('/guides/testing#test-data-sources', '/guides/testing#test-data-source')}\nSee also the [Python SDK](./python).\n`,
    )
    expect(after('index.mdx')).toBe(
      index.replace('[Segments](/concepts/segments)', '[Segments](/targeting/segments) ([start](/quickstart), [overview](/overview))'),
    )
    // Applied, the docs check clean but for the ambiguous link.
    const again = fixBrokenLinks(readDocsTree(new Map([...planted, ...changed])))
    expect(again.report.problems.map((problem) => problem.url)).toEqual(['/overview'])
  })
})

describe.skipIf(!mintlifyPresent)('fix broken links on the Mintlify docs (English pages)', () => {
  let result: ReturnType<typeof fixBrokenLinks>
  beforeAll(async () => {
    const english = await mintlifyEnglish()
    result = fixBrokenLinks(readDocsTree(english))
  }, 300_000)

  it('checks thousands of links and fixes only the ones checked by hand', () => {
    expect(result.report.checked).toBeGreaterThan(1000)
    const fixes = result.report.problems
      .filter((problem) => problem.fixedTo)
      .map((problem) => `${problem.file}: ${problem.url} → ${problem.fixedTo}`)
    expect(fixes).toEqual([
      'assistant/index.mdx: /assistant/configure#set-deflection-email → /assistant/configure#set-deflection-emails',
      'changelog.mdx: /agent/integrations → /automations/integrations',
      'editor/configurations.mdx: /organize/settings-appearance#logos → /organize/settings-appearance#logo',
    ])
  })

  it('lists the real broken links it cannot fix for a person', () => {
    const left = result.report.problems.filter((problem) => !problem.fixedTo).map((problem) => `${problem.file}: ${problem.url}`)
    expect(left).toContain('index.mdx: /installation')
    expect(left).toContain('components/tooltips.mdx: /api-reference')
    expect(result.summary).toContain('**Left for a person')
  })
})
