import { beforeFirst, trimEnd } from '../../shared/trim.ts'

/** Where a page sits in the site's navigation (`docs.json`, or the older `mint.json`). */
export interface NavEntry {
  path: string
  /** Tabs, anchors, dropdowns, menu items and groups above the page, outermost first. */
  groups: string[]
  version?: string
  language?: string
  /** Every version and language whose navigation lists the page (`index` is often in all of them). */
  versions: string[]
  languages: string[]
  /** Position in navigation order. */
  order: number
  /** Id of the list the page is in: pages of one list are neighbours. */
  list: number
  /** Search weight from the nearest group's `boost` (Mintlify), 1 by default. */
  boost: number
  /** Under a hidden tab, group (or other container): out of the sidebar, and out of search unless `searchable`. */
  hidden: boolean
  /** Under a container marked `searchable: true`: searched even though hidden. */
  searchable: boolean
}

export interface Navigation {
  name?: string
  description?: string
  entries: Map<string, NavEntry>
  languages: string[]
  versions: string[]
  /** Languages whose navigation is in a file the docs lack (`"$ref": "./fr.json"`): their pages' places are unknown. */
  unreadLanguages: string[]
  /** Mintlify's `seo.indexing: "all"`: hidden pages are searched and given to the assistant too. */
  indexAll: boolean
}

/** Reads another JSON file of the docs (`"$ref": "./fr.json"`); undefined when it is missing (docs-site.ts throws on broken JSON). */
export type ReadJson = (path: string) => unknown

interface Walk {
  groups: string[]
  boost?: number
  hidden?: boolean
  searchable?: boolean
  version?: string
  language?: string
  list: number
}

const CONTAINERS = ['languages', 'versions', 'tabs', 'anchors', 'dropdowns', 'products', 'menu', 'groups', 'pages'] as const
const LABELS = ['tab', 'anchor', 'dropdown', 'product', 'item', 'group'] as const

export function readNavigation(config: unknown, readJson: ReadJson = () => undefined): Navigation {
  const nav: Navigation = { entries: new Map(), languages: [], versions: [], unreadLanguages: [], indexAll: false }
  if (!isObject(config)) return nav
  nav.indexAll = isObject(config.seo) && config.seo.indexing === 'all'
  nav.name = typeof config.name === 'string' ? config.name : undefined
  nav.description = typeof config.description === 'string' ? config.description : undefined
  let lists = 0
  const addPage = (raw: string, at: Walk) => {
    // An entry names a page's file; a URL or an anchor is a link, not a page.
    if (normalizePath(raw) === undefined) return
    const path = pagePathOfFile(raw)
    const known = nav.entries.get(path)
    if (known) {
      note(known.versions, at.version)
      note(known.languages, at.language)
      return
    }
    nav.entries.set(path, {
      path,
      groups: at.groups,
      version: at.version,
      language: at.language,
      versions: at.version ? [at.version] : [],
      languages: at.language ? [at.language] : [],
      order: nav.entries.size,
      list: at.list,
      boost: at.boost ?? 1,
      hidden: at.hidden === true,
      searchable: at.searchable === true,
    })
  }
  const note = (values: string[], value: string | undefined) => {
    if (value && !values.includes(value)) values.push(value)
  }
  // Each file a `$ref` names is followed once: a file that refers to itself (or to one that refers back) three times
  // over made 3^32 walks, and the server never finished loading.
  const followed = new Set<string>()
  const walk = (node: unknown, at: Walk, depth: number): void => {
    if (depth > 32) return
    if (typeof node === 'string') return addPage(node, at)
    if (!isObject(node)) return
    if (typeof node.$ref === 'string') {
      if (followed.has(node.$ref)) return
      followed.add(node.$ref)
      const target = readJson(node.$ref)
      // A missing language file still names its language: `./fr.json` holds the `fr` pages.
      const guess = /(?:^|\/)([a-z]{2}(?:-[A-Za-z]{2,4})?)\.json$/.exec(node.$ref)?.[1]
      if (isObject(target)) return walk({ ...(guess && !target.language ? { language: guess } : {}), ...target }, at, depth + 1)
      if (guess) {
        note(nav.languages, guess)
        note(nav.unreadLanguages, guess)
      }
      return
    }
    const next: Walk = { ...at }
    if (typeof node.language === 'string') note(nav.languages, (next.language = node.language))
    if (typeof node.version === 'string') note(nav.versions, (next.version = node.version))
    const boost = typeof node.boost === 'number' ? searchBoost(node.boost) : undefined
    if (boost !== undefined) next.boost = boost
    // Mintlify: a hidden tab or group hides its pages from the sidebar and from search; `searchable: true` on it (or on
    // a container under it) brings them back into search, not into the sidebar.
    if (node.hidden === true) next.hidden = true
    if (node.searchable === true) next.searchable = true
    for (const label of LABELS) {
      const value = node[label]
      if (typeof value === 'string' && value.trim()) next.groups = [...next.groups, value.trim()]
    }
    if (typeof node.root === 'string') addPage(node.root, next)
    for (const key of CONTAINERS) {
      const children = node[key]
      if (!Array.isArray(children)) continue
      const inList = { ...next, list: ++lists }
      for (const child of children) walk(child, inList, depth + 1)
    }
  }
  const root = config.navigation
  // mint.json: `navigation` is the list of groups; `versions` a list of names.
  if (Array.isArray(root)) walk({ groups: root }, { groups: [], list: 0 }, 0)
  else if (isObject(root)) walk(root, { groups: [], list: 0 }, 0)
  if (Array.isArray(config.versions)) {
    for (const v of config.versions) if (typeof v === 'string') note(nav.versions, v)
  }
  return nav
}

/**
 * A page's path from its file's name, or from a navigation entry (which names a file): `/sdks/javascript.mdx` →
 * `sdks/javascript`. A `#` or `?` is part of the name (`a#b.mdx` is the page `a#b`), where a link's is not (see
 * normalizePath).
 */
export function pagePathOfFile(file: string): string {
  const path = trimEnd(file.trim().replace(/^\.?\/+/, ''), '/').replace(/\.mdx?$/i, '')
  return path || 'index'
}

/** A page's path from a link to it: `/sdks/javascript.mdx#install` → `sdks/javascript`; URLs and anchors are not pages. */
export function normalizePath(raw: string): string | undefined {
  const trimmed = raw.trim()
  if (!trimmed || /^[a-z][a-z0-9+.-]*:/i.test(trimmed) || trimmed.startsWith('#')) return undefined
  // beforeFirst and trimEnd, not `/[?#].*$/` and `/\/+$/`: linear, where those read the rest of a run of `#` or `/`
  // from each of its characters. (`.` stopped at a line break, so `/[?#].*$/` kept a query followed by one; a path
  // has none.)
  const path = trimEnd(beforeFirst(trimmed, '?#').replace(/^\.?\/+/, ''), '/').replace(/\.mdx?$/i, '')
  return path || 'index'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A search `boost` (a page's or a navigation group's), written as a number or as text: Mintlify takes any positive
 * number and advises at most 10, beyond which a boost overwhelms relevance. Anything else is no boost.
 */
export function searchBoost(value: unknown): number | undefined {
  const boost = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return boost > 0 && boost <= 10 ? boost : undefined
}
