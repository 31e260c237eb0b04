import { parseDocument } from 'yaml'
import { trimEnd } from '../../shared/trim.ts'
import { withoutControlCharacters } from '../keys/control-characters.ts'
import { searchBoost } from './navigation.ts'

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
  /** `hidden: false` written out: the page is shown (and searched) though its navigation group or tab is hidden. */
  shown: boolean
  /** Served, but not searched. */
  noindex: boolean
  /** Mintlify's `searchable: false`: listed and served, but not searched nor given to the assistant. */
  searchable: boolean
  /**
   * The API operation the page documents (Mintlify's `openapi: "spec.json POST /path"` or `api: "GET https://…"`):
   * such pages often have no body of their own, and what they document is the operation.
   */
  endpoint?: { method: string; path: string }
  /** Mintlify's `boost`: multiplies the page's search ranking, over the one its navigation group gives. */
  boost?: number
  /** The page has frontmatter that is not a YAML mapping: its fields are ignored (the status names the page). */
  brokenFrontmatter?: true
}

/** Reads YAML frontmatter; a page with broken YAML keeps its body and gets no metadata, as Mintlify does. */
export function readFrontmatter(yaml: string | undefined): PageMeta {
  const simple = yaml ? simpleYaml(yaml) : {}
  const { data, broken } = simple ? { data: simple, broken: false } : yamlMapping(yaml!)
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
    shown: data.hidden === false || data.hidden === 'false',
    searchable: !(data.searchable === false || data.searchable === 'false'),
    noindex: data.noindex === true || data.noindex === 'true' || robots.includes('noindex'),
    endpoint: endpointOf(text(data.openapi) ?? text(data.api)),
    boost: searchBoost(data.boost),
    ...(broken ? { brokenFrontmatter: true as const } : {}),
  }
}

const OPERATION = /(?:^|\s)(get|post|put|patch|delete|head|options|trace|webhook)\s+(\S+)$/i

/** `"/openapi.json POST /users/{id}"`, `"GET /users"`, `"POST https://api.example.com/v1/users"`: the method and path. */
function endpointOf(value: string | undefined): PageMeta['endpoint'] {
  const match = value ? OPERATION.exec(value.trim()) : null
  if (!match) return undefined
  const target = match[2]!
  const path = /^https?:\/\//i.test(target) ? target.replace(/^https?:\/\/[^/]*/i, '') || '/' : target
  return { method: match[1]!.toUpperCase(), path }
}

/**
 * The YAML's mapping, and whether it has errors. YAML recovers what it can from broken text (an unclosed quote, a bad
 * indent), and that is kept, as it was; the errors are reported (the status names the page), since a field may be lost.
 * Comments or blank lines alone are an empty mapping.
 */
function yamlMapping(yaml: string): { data: Record<string, unknown>; broken: boolean } {
  try {
    const document = parseDocument(yaml, { logLevel: 'silent' })
    const parsed = document.toJS() as unknown
    if (parsed === null || parsed === undefined) return { data: {}, broken: document.errors.length > 0 }
    const mapping = typeof parsed === 'object' && !Array.isArray(parsed)
    return { data: mapping ? (parsed as Record<string, unknown>) : {}, broken: !mapping || document.errors.length > 0 }
  } catch {
    return { data: {}, broken: true }
  }
}

/** A string field as written, without control characters (a NUL or ESC in a title reached search results and MCP). */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return withoutControlCharacters(value).trim() || undefined
  if (typeof value === 'number') return String(value)
  return undefined
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(text).filter((item): item is string => Boolean(item))
  const one = text(value)
  return one
    ? one
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : []
}

/**
 * `key: value`, the value from its first character that is not a blank; the blanks after it are cut with trimEnd.
 * Linear, where `/^([A-Za-z_][\w-]*):[ \t]+(.+?)[ \t]*$/` tried every split of a run of blanks between its three parts
 * (cubic: a line of 3,000 tabs and a `\r` took 12 s). A value of blanks alone does not match; that read it as its
 * last blank, which no kind of value below takes, so the frontmatter went to the YAML parser then as now.
 */
const KEY_VALUE = /^([A-Za-z_][\w-]*):[ \t]+([^ \t\n\r\u2028\u2029].*)$/
const QUOTED = /^"([^"\\]*)"$|^'([^']*)'$/
const QUOTED_ITEM = /\s*(?:"([^"\\]*)"|'([^']*)')\s*(,|$)/y
/** Words YAML reads as something other than text (booleans, null) in one of its versions. */
const SPECIAL_WORD = /^(true|false|null|yes|no|on|off|y|n)$/i
/** A plain (unquoted) value that can only be text: a letter first, then nothing YAML gives a meaning to. */
const PLAIN_TEXT = /^[A-Za-z][^:#'"{}[\],&*!|>%@`\\]*$/

/**
 * The frontmatter most pages have (`key: value` lines with text, quoted text, true/false and lists of quoted text),
 * read without the YAML parser, which took a tenth of the time of parsing a page. Undefined for anything else, which
 * goes to the YAML parser; a test checks both read the same on every page of demo/docs and the Mintlify corpus.
 */
export function simpleYaml(yaml: string): Record<string, unknown> | undefined {
  const data: Record<string, unknown> = {}
  for (const line of yaml.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('#')) continue
    const match = KEY_VALUE.exec(line)
    if (!match || match[1] === '__proto__' || Object.hasOwn(data, match[1]!)) return undefined
    const value = trimEnd(match[2]!, ' \t')
    const quoted = QUOTED.exec(value)
    if (quoted) data[match[1]!] = quoted[1] ?? quoted[2]
    else if (value === 'true' || value === 'false') data[match[1]!] = value === 'true'
    else if (value.startsWith('[') && value.endsWith(']')) {
      const items = quotedList(value.slice(1, -1))
      if (!items) return undefined
      data[match[1]!] = items
    } else if (PLAIN_TEXT.test(value) && !SPECIAL_WORD.test(value)) data[match[1]!] = value
    else return undefined
  }
  return data
}

function quotedList(inner: string): string[] | undefined {
  if (inner.trim() === '') return []
  const items: string[] = []
  QUOTED_ITEM.lastIndex = 0
  while (QUOTED_ITEM.lastIndex < inner.length) {
    const item = QUOTED_ITEM.exec(inner)
    if (!item) return undefined
    items.push(item[1] ?? item[2]!)
    if (item[3] === '') break
  }
  return QUOTED_ITEM.lastIndex === inner.length ? items : undefined
}
