import type { Corpus, PageInfo } from '../search/types.ts'

const byCorpus = new WeakMap<Corpus, Map<string, string>>()

/**
 * A conversation's category: the docs.json navigation group of its best source, so it needs no model and stays the
 * same from one day to the next. The group is the outermost label of the page's navigation trail that is not a
 * site-wide container: a tab or anchor holding more than half the listed pages ("Guides" over everything) says
 * nothing, so the group under it ("SDKs", "Core concepts") is the category. Pages outside the navigation have none.
 */
export function categoryOf(corpus: Corpus, path: string | undefined): string | null {
  if (!path) return null
  let categories = byCorpus.get(corpus)
  if (!categories) byCorpus.set(corpus, (categories = categoriesOf(corpus.pages())))
  return categories.get(path.replace(/^\/+/, '')) ?? null
}

export function categoriesOf(pages: PageInfo[]): Map<string, string> {
  const listed = pages.filter((page) => page.groups.length > 0)
  const share = new Map<string, number>()
  const key = (level: number, label: string) => `${level}\u0000${label}`
  for (const page of listed) page.groups.forEach((label, level) => share.set(key(level, label), (share.get(key(level, label)) ?? 0) + 1))
  const categories = new Map<string, string>()
  for (const page of listed) {
    const label = page.groups.find((label, level) => (share.get(key(level, label)) ?? 0) <= listed.length / 2) ?? page.groups.at(-1)!
    categories.set(page.path, label)
  }
  return categories
}
