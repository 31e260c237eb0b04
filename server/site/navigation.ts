import type { PageInfo } from '../search/types.ts'

export interface NavGroup {
  title: string
  /** Pages and nested groups, in the docs.json order. */
  items: Array<{ page: PageInfo } | { group: NavGroup }>
}

/**
 * The sidebar from the pages' navigation groups (`[tab, group, subgroup…]`). Hidden pages and pages outside the
 * navigation are left out of it (they are still served at their URL).
 */
export function buildNavigation(pages: PageInfo[]): NavGroup[] {
  const root: NavGroup = { title: '', items: [] }
  // Each group's subgroups by title: looking them up among its items made a large site's menu quadratic.
  const subgroups = new Map<NavGroup, Map<string, NavGroup>>()
  for (const page of pages) {
    if (page.hidden || page.groups.length === 0) continue
    let group = root
    for (const title of page.groups) {
      let byTitle = subgroups.get(group)
      if (!byTitle) subgroups.set(group, (byTitle = new Map()))
      let next = byTitle.get(title)
      if (!next) {
        next = { title, items: [] }
        byTitle.set(title, next)
        group.items.push({ group: next })
      }
      group = next
    }
    group.items.push({ page })
  }
  return root.items.flatMap((item) => ('group' in item ? [item.group] : []))
}

/** Pages in reading order (the sidebar's order), for previous/next links. */
export function readingOrder(groups: NavGroup[]): PageInfo[] {
  const out: PageInfo[] = []
  const walk = (group: NavGroup) => {
    for (const item of group.items) {
      if ('page' in item) out.push(item.page)
      else walk(item.group)
    }
  }
  groups.forEach(walk)
  return out
}
