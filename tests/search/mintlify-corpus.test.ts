import { existsSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildCorpus } from '../../server/search/corpus.ts'
import { type DocsSite, readDocsSite } from '../../server/search/docs-site.ts'
import { readDirectory } from '../../server/search/sources/directory.ts'
import type { Section } from '../../server/search/types.ts'

const CORPUS = '../shared/corpora/mintlify-docs'
const present = existsSync(`${CORPUS}/docs.json`)
if (!present) console.log(`skipping the Mintlify corpus tests: ${CORPUS} is absent`)

/** Pages the tests name, plus every 6th page: all of it takes minutes to parse on a busy 2-core machine. */
const NAMED = /^((fr|zh|es)\/)?(quickstart|index|cli\/index|cli\/install|organize\/hidden-pages|enterprise-contracting)\.mdx$/

describe.skipIf(!present)('the real Mintlify docs (a sample of its ~1,100 MDX pages)', () => {
  let site: DocsSite
  let corpus: ReturnType<typeof buildCorpus>

  beforeAll(async () => {
    const all = await readDirectory(CORPUS)
    const files = new Map(
      [...all.files].filter(([path], i) => !/\.mdx?$/.test(path) || path.startsWith('snippets/') || NAMED.test(path) || i % 6 === 0),
    )
    site = readDocsSite({ files, revision: all.revision })
    corpus = buildCorpus(site)
  }, 120_000)

  it('parses every page, almost all as MDX', () => {
    const pages = [...site.pages.values()]
    expect(pages.length).toBeGreaterThan(150)
    const fallbacks = pages.filter((p) => !p.mdx)
    expect(fallbacks.length / pages.length).toBeLessThan(0.02)
    for (const page of pages) expect(page.title.length, page.path).toBeGreaterThan(0)
  })

  it('reduces MDX to text: no component tags, imports or JSX expressions outside code', () => {
    const leaks: string[] = []
    for (const section of corpus.sections) {
      const prose = section.content.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?\n\1/gm, '').replace(/`[^`\n]*`/g, '')
      if (
        /<\/?(Card|CardGroup|Tabs?|Steps?|Note|Warning|Tip|Info|Accordion|AccordionGroup|CodeGroup|Frame|ParamField|ResponseField|Update)\b/.test(
          prose,
        )
      )
        leaks.push(`${section.id}: tag`)
      if (/^\s*(import|export)\s.+from\s+['"]/m.test(prose)) leaks.push(`${section.id}: import`)
    }
    expect(leaks.slice(0, 10)).toEqual([])
  })

  it('places pages in the navigation: tabs and nested groups, root pages, URLs', () => {
    const quickstart = site.pages.get('quickstart')!
    expect(quickstart.nav?.groups).toEqual(['Documentation', 'Get started'])
    expect(site.pages.get('cli/install')!.nav?.groups).toEqual(['Documentation', 'Get started', 'CLI'])
    expect(site.pages.get('cli/index')!.url).toBe('/cli')
    expect(site.pages.get('index')!.url).toBe('/')
    expect(site.navigation.languages).toEqual(['en', 'fr', 'es', 'zh'])
  })

  it('knows each page language, from the navigation or the path prefix', () => {
    expect(site.pages.get('quickstart')!.language).toBe('en')
    expect(site.pages.get('fr/quickstart')!.language).toBe('fr')
    expect(site.pages.get('zh/quickstart')!.language).toBe('zh')
  })

  it('filters search by language', () => {
    const inFrench = corpus.search('installer la CLI', { pageSize: 20, filter: { language: 'fr' } })
    expect(inFrench.length).toBeGreaterThan(0)
    expect(inFrench.every((hit: { section: Section }) => hit.section.path.startsWith('fr/'))).toBe(true)
    const inEnglish = corpus.search('install the CLI', { pageSize: 20, filter: { language: 'en' } })
    expect(inEnglish.length).toBeGreaterThan(0)
    expect(inEnglish.every((hit) => !/^(fr|es|zh)\//.test(hit.section.path))).toBe(true)
    expect(inEnglish.slice(0, 5).map((hit) => hit.section.path)).toContain('cli/install')
    // Chinese has no spaces between words: it is searched by character.
    const inChinese = corpus.search('安装 CLI', { pageSize: 10, filter: { language: 'zh' } })
    expect(inChinese.length).toBeGreaterThan(0)
    expect(inChinese.every((hit) => hit.section.path.startsWith('zh/'))).toBe(true)
  })

  it('keeps hidden pages out of search', () => {
    const hidden = [...site.pages.values()].filter((p) => p.meta.hidden).map((p) => p.path)
    expect(hidden.length).toBeGreaterThan(0)
    const searchable = new Set(corpus.sections.map((s) => s.path))
    for (const path of hidden) expect(searchable.has(path), path).toBe(false)
  })
})
