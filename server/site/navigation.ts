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
  for (const page of pages) {
    if (page.hidden || page.groups.length === 0) continue
    let group = root
    for (const title of page.groups) {
      let next = group.items.find((item): item is { group: NavGroup } => 'group' in item && item.group.title === title)
      if (!next) {
        next = { group: { title, items: [] } }
        group.items.push(next)
      }
      group = next.group
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
