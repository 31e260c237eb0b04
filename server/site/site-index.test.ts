import { describe, expect, test } from 'vitest'
import { buildCorpus } from '../search/corpus.ts'
import { readDocsSite } from '../search/docs-site.ts'
import { buildNavigation, type NavGroup } from './navigation.ts'
import { renderedOf, siteIndexOf } from './site-index.ts'

const corpusOf = (revision: string, pages: Record<string, string>, navigation: unknown) =>
  buildCorpus(readDocsSite({ revision, files: new Map([['docs.json', JSON.stringify({ navigation })], ...Object.entries(pages)]) }))

describe('what the site works out once per revision', () => {
  const pages = { 'a.md': '# A\n\nFirst *page*.', 'b.md': '# B\n\nSecond.', 'c.md': '# C\n\nThird.' }
  const navigation = {
    groups: [
      { group: 'Start', pages: ['a', 'b'] },
      { group: 'More', pages: ['c'] },
    ],
  }

  test('a page is rendered once per revision, and again when the docs change', async () => {
    const corpus = corpusOf('r1', pages, navigation)
    const site = siteIndexOf(corpus)
    expect(siteIndexOf(corpus)).toBe(site)
    const first = await renderedOf(site, 'a', corpus.page('a')!.content)
    expect(first.html).toContain('<em>page</em>')
    // The markdown given is not read again: the revision's rendering is served.
    expect(await renderedOf(site, 'a', 'changed')).toBe(first)
    const next = siteIndexOf(corpusOf('r2', { ...pages, 'a.md': '# A\n\nFirst **page**.' }, navigation))
    expect(next).not.toBe(site)
    expect((await renderedOf(next, 'a', '# A\n\nFirst **page**.')).html).toContain('<strong>page</strong>')
  })

  test('reading order, places and pages by URL follow the sidebar', () => {
    const site = siteIndexOf(corpusOf('r1', pages, navigation))
    expect(site.order.map((page) => page.url)).toEqual(['/a', '/b', '/c'])
    expect(site.readingIndex.get('/c')).toBe(2)
    expect(site.pageByUrl.get('/b')?.title).toBe('B')
    expect(site.navigation.map((group) => group.title)).toEqual(['Start', 'More'])
  })
})

describe('the sidebar', () => {
  const page = (url: string, groups: string[]) => ({ url, path: url.slice(1), title: url, groups, hidden: false }) as never

  test('groups keep the pages order; a title under two parents is two groups', () => {
    const navigation = buildNavigation([
      page('/a', ['Guides', 'Setup']),
      page('/b', ['API', 'Setup']),
      page('/c', ['Guides', 'Setup']),
      page('/d', ['Guides']),
    ])
    const outline = (items: ReturnType<typeof buildNavigation>[number]['items']): unknown[] =>
      items.map((item) => ('page' in item ? item.page.url : { [item.group.title]: outline(item.group.items) }))
    expect(navigation.map((group) => ({ [group.title]: outline(group.items) }))).toEqual([
      { Guides: [{ Setup: ['/a', '/c'] }, '/d'] },
      { API: [{ Setup: ['/b'] }] },
    ])
  })

  test('a group of 50,000 pages before a subgroup of 50,000 builds with every page in order', () => {
    // Each subgroup was looked up among its parent's items, pages included: quadratic, 7 s for this before, 0.3 s now.
    // Speed is not asserted here (noisy machines); this checks the order the Map-based lookup keeps.
    const pages = Array.from({ length: 100_000 }, (_, i) => page(`/p${i}`, i < 50_000 ? ['All'] : ['All', 'More']))
    const [all] = buildNavigation(pages)
    const urls = (items: NavGroup['items']) => items.map((item) => ('page' in item ? item.page.url : item.group.title))
    expect(urls(all!.items)).toEqual([...pages.slice(0, 50_000).map((p: { url: string }) => p.url), 'More'])
    const more = all!.items.at(-1)!
    expect('group' in more && urls(more.group.items)).toEqual(pages.slice(50_000).map((p: { url: string }) => p.url))
  })
})
