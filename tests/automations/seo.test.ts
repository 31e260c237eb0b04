import { beforeAll, describe, expect, it } from 'vitest'
import { findFrontmatter, readDocsTree } from '../../server/automations/docs-tree.ts'
import { applyFileEdits } from '../../server/automations/edits.ts'
import { fixSeo } from '../../server/automations/seo/fix-seo.ts'
import { readFrontmatter } from '../../server/search/frontmatter.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import { mintlifyEnglish, mintlifyPresent as hasMintlify } from './corpora.ts'

const mintlifyPresent = hasMintlify('SEO')

describe('fix SEO metadata on demo/docs', () => {
  let files: Map<string, string>
  beforeAll(async () => {
    files = (await readDirectory('demo/docs')).files
  })

  it('sets nothing on the demo as shipped, and lists its duplicate titles', () => {
    const { edits, report } = fixSeo(readDocsTree(files))
    expect(edits).toEqual([])
    expect(report.left.every((item) => item.problem === 'duplicate' && item.field === 'title')).toBe(true)
  })

  it('fills titles and descriptions removed from pages, changing only their frontmatter', () => {
    const planted = new Map(files)
    const stripped = ['guides/webhooks.mdx', 'concepts/contexts.mdx', 'sdks/go.mdx']
    // Without its title the page's own heading must name it: the demo pages have none, so one is written in.
    for (const file of stripped) {
      const title = readFrontmatter(findFrontmatter(files.get(file)!)!.yaml).title
      planted.set(
        file,
        files
          .get(file)!
          .replace(/^(title|description): .*\n/gm, '')
          .replace(/\n---\n\n/, `\n---\n\n# ${title}\n\n`),
      )
    }
    const { edits, report } = fixSeo(readDocsTree(planted))
    const fixed = applyFileEdits(planted, edits)
    expect([...fixed.keys()].sort()).toEqual([...stripped].sort())
    for (const file of stripped) {
      const after = fixed.get(file)!
      const frontmatter = findFrontmatter(after)!
      const meta = readFrontmatter(frontmatter.yaml)
      expect(meta.title, file).toBe(readFrontmatter(findFrontmatter(files.get(file)!)!.yaml).title)
      expect(meta.description!.length, file).toBeLessThanOrEqual(160)
      expect(meta.description, file).toMatch(/[.!?…]$/)
      expect(meta.description, file).not.toMatch(/[`*[\]]/)
      // The body is byte-identical.
      expect(after.slice(frontmatter.end)).toBe(planted.get(file)!.slice(findFrontmatter(planted.get(file)!)!.end))
    }
    expect(report.changes.filter((change) => change.field === 'description')).toHaveLength(3)
  })
})

describe.skipIf(!mintlifyPresent)('fix SEO metadata on the Mintlify docs (English pages)', () => {
  it('finds every listed page titled and described, and the one duplicate title', async () => {
    const english = await mintlifyEnglish()
    const { edits, report } = fixSeo(readDocsTree(english))
    expect(report.pages).toBeGreaterThan(200)
    expect(edits).toEqual([])
    expect(report.left.map((item) => `${item.file} ${item.field}`)).toEqual(['components/github.mdx title', 'deploy/github.mdx title'])
  }, 300_000)
})
