import { parse } from 'yaml'

/** What a page's frontmatter says about it (Mintlify's fields and ours). */
export interface PageMeta {
  title?: string
  sidebarTitle?: string
  description?: string
  tags: string[]
  /** Mintlify's `keywords`: extra search terms. */
  keywords: string[]
  /** Extra groups the page belongs to, beside its navigation groups. */
  groups: string[]
  version?: string
  language?: string
  /** Not listed, not searched, not served. */
  hidden: boolean
  /** Served, but not searched. */
  noindex: boolean
}

/** Reads YAML frontmatter; a page with broken YAML keeps its body and gets no metadata, as Mintlify does. */
export function readFrontmatter(yaml: string | undefined): PageMeta {
  let data: Record<string, unknown> = {}
  if (yaml) {
    try {
      const parsed = parse(yaml, { logLevel: 'silent' }) as unknown
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>
    } catch {
      data = {}
    }
  }
  const robots = text(data.robots)?.toLowerCase() ?? ''
  return {
    title: text(data.title),
    sidebarTitle: text(data.sidebarTitle),
    description: text(data.description),
    tags: list(data.tags ?? data.tag),
    keywords: list(data.keywords),
    groups: list(data.groups),
    version: text(data.version),
    language: text(data.language ?? data.lang),
    hidden: data.hidden === true || data.hidden === 'true',
    noindex: data.noindex === true || data.noindex === 'true' || robots.includes('noindex'),
  }
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined
  if (typeof value === 'number') return String(value)
  return undefined
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text).filter((item): item is string => Boolean(item))
  const one = text(value)
  return one ? one.split(',').map((item) => item.trim()).filter(Boolean) : []
}
