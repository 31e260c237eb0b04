import { normalizePath, pagePathOfFile } from '../../search/navigation.ts'
import { pageUrl } from '../../search/page-url.ts'
import { decodedOnce } from '../../percent-decoding.ts'
import { resolveImport } from '../../search/snippets.ts'
import { beforeFirst, trimEnd, trimStart } from '../../../shared/trim.ts'

/** What a written link target points at, in a docs site. */
export type Target =
  | { kind: 'external' }
  /** A `{variable}` or other target no static check can read. */
  | { kind: 'dynamic' }
  /** A file that is not a page (`/images/a.png`, `/openapi.yaml`), by path from the docs root. */
  | { kind: 'asset'; file: string }
  /** `#anchor` on the page itself. */
  | { kind: 'self'; anchor: string }
  | { kind: 'page'; page: string; anchor?: string }
  /**
   * No such page: `path` is where the link points, as a page path. `found` is the page it must mean, exactly: the
   * site redirects it there, or it is the page's path behind a base path the site is served under (`/docs/quickstart`).
   */
  | { kind: 'missing'; path: string; anchor?: string; found?: { page: string; via: 'redirect' | 'base-path' } }

export interface Redirect {
  /** The source's literal text and parameters, in order (see readRedirects and sourceParameters). */
  source: SourcePart[]
  destination: string
}

/** Literal text, or a parameter: `:name` (one segment's worth, a character or more) or `:name*` (any text on a line). */
type SourcePart = { text: string } | { name: string; rest: boolean }

export interface SiteIndex {
  /** Page paths that exist: page files and navigation entries. */
  pages: ReadonlySet<string>
  redirects: readonly Redirect[]
  /** First segments of the page paths (`guides`, `fr`, `index`): a link starting with another is behind a base path. */
  topLevel: ReadonlySet<string>
}

export function siteIndex(pages: Iterable<string>, redirects: readonly Redirect[]): SiteIndex {
  const set = new Set(pages)
  return { pages: set, redirects, topLevel: new Set([...set].map((page) => page.split('/')[0]!)) }
}

const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i
const PAGE_EXTENSION = /\.mdx?$/i
/** A last segment with a file extension other than a page's (`logo.png`, `openapi.yaml`); `v1.2` is not one. */
const ASSET = /\.[a-z][a-z0-9]{0,5}$/i

/**
 * Reads a link written in `fromFile` (a page `guides/a.mdx` or a snippet). Relative targets are tried both against the
 * file's folder and against the page's URL (`cli/index.mdx` is served at `/cli`, so a browser reads `./install` from
 * it as `/install`); the link is good when either is a page.
 */
export function resolveLink(url: string, fromFile: string, site: SiteIndex): Target {
  const trimmed = url.trim()
  if (!trimmed || EXTERNAL.test(trimmed)) return { kind: 'external' }
  if (/[{}<>`$]/.test(trimmed)) return { kind: 'dynamic' }
  const hash = trimmed.indexOf('#')
  const anchor = hash === -1 ? undefined : decodedOnce(trimmed.slice(hash + 1))
  // Cut in code, linear, where `/\?.*$/` read the rest of the target from each `?` of a run.
  const pathPart = beforeFirst(trimmed, '?#')
  if (!pathPart) return anchor === undefined ? { kind: 'external' } : { kind: 'self', anchor }
  const path = decodedOnce(pathPart)
  const bases = path.startsWith('/') ? [path] : relativeBases(path, fromFile)
  const last = trimEnd(path, '/').split('/').at(-1) ?? ''
  if (ASSET.test(last) && !PAGE_EXTENSION.test(last)) return { kind: 'asset', file: trimStart(bases[0]!, '/') }
  const tried: string[] = []
  for (const base of bases) {
    const page = normalizePath(base)
    if (page === undefined) continue
    tried.push(page)
    const found = existing(page, site)
    if (found) return { kind: 'page', page: found, anchor }
  }
  const missing = tried[0] ?? 'index'
  const redirect = followRedirects(tried, site)
  if (redirect) return { kind: 'missing', path: missing, anchor, found: { page: redirect, via: 'redirect' } }
  const rebased = path.startsWith('/') ? withoutBasePath(missing, site) : undefined
  if (rebased) return { kind: 'missing', path: missing, anchor, found: { page: rebased, via: 'base-path' } }
  return { kind: 'missing', path: missing, anchor }
}

/** `docs/es/quickstart` → `es/quickstart` when `docs` is no folder of the site and the rest is a page. */
function withoutBasePath(path: string, site: SiteIndex): string | undefined {
  const slash = path.indexOf('/')
  if (slash === -1 || site.topLevel.has(path.slice(0, slash))) return undefined
  return existing(path.slice(slash + 1), site)
}

const existing = (page: string, site: SiteIndex) => [page, `${page}/index`].find((candidate) => site.pages.has(candidate))

/** The two readings of a relative target: from the file's folder, and from the page's URL. */
function relativeBases(path: string, fromFile: string): string[] {
  const fromFolder = '/' + resolveImport(fromFile, path)
  const url = pageUrl(pagePathOfFile(fromFile))
  const fromUrl = '/' + resolveImport(url.slice(1) || 'index', path)
  return fromUrl === fromFolder ? [fromFolder] : [fromFolder, fromUrl]
}

/** A page the site's redirects send one of the paths to (following up to 5 hops), if it exists. */
function followRedirects(paths: string[], site: SiteIndex): string | undefined {
  for (const path of paths) {
    let at = `/${path}`
    for (let hop = 0; hop < 5; hop++) {
      const next = site.redirects.map((redirect) => rewrite(redirect, at)).find((target) => target !== undefined)
      if (next === undefined || EXTERNAL.test(next)) break
      const page = normalizePath(next)
      if (page === undefined) break
      const found = existing(page, site)
      if (found) return found
      at = `/${page}`
    }
  }
  return undefined
}

function rewrite(redirect: Redirect, path: string): string | undefined {
  const parameters = sourceParameters(redirect.source, trimEnd(path, '/') || '/')
  if (!parameters) return undefined
  return redirect.destination.replace(/:(\w+)\*?/g, (_, name: string) => parameters.get(name) ?? '')
}

const LINE_BREAKS = '\n\r\u2028\u2029'

/**
 * The parameters of `path` when the redirect's source matches all of it, else undefined. The source was once the
 * regular expression `^…$` with `:name` as `(?<name>[^/]+)` and `:name*` as `(?<name>.*)`; this matches as it did,
 * each parameter taking the most the rest allows, in order (and `.` not taking a line break), but in time linear in
 * the path: with two `*` parameters that expression tried every split of the path between them, and their literal
 * text, quadratic (three, cubic). Here whether the parts from each one on can match the path from each point on is
 * worked out once, from the last part back; then each parameter takes the longest text after which the rest can.
 */
function sourceParameters(parts: readonly SourcePart[], path: string): Map<string, string> | undefined {
  const first = parts[0]
  if (first && 'text' in first && !path.startsWith(first.text)) return undefined
  const length = path.length
  // matches[i][at]: parts i… match path.slice(at) whole.
  const matches: Uint8Array[] = []
  matches[parts.length] = new Uint8Array(length + 1)
  matches[parts.length]![length] = 1
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!
    const next = matches[i + 1]!
    const here = new Uint8Array(length + 1)
    if ('text' in part) {
      for (let at = 0; at + part.text.length <= length; at++)
        here[at] = next[at + part.text.length]! && path.startsWith(part.text, at) ? 1 : 0
    } else if (part.rest) {
      // An end at `at` or after it on the line (`.*`).
      for (let at = length; at >= 0; at--) {
        here[at] = next[at]! || (at < length && !LINE_BREAKS.includes(path[at]!) && here[at + 1]!) ? 1 : 0
      }
    } else {
      // An end after `at`, no further than the segment's end (`[^/]+`).
      for (let at = length - 1; at >= 0; at--) here[at] = path[at] !== '/' && (next[at + 1]! || here[at + 1]!) ? 1 : 0
    }
    matches[i] = here
  }
  if (!matches[0]![0]) return undefined
  const parameters = new Map<string, string>()
  let at = 0
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if ('text' in part) {
      at += part.text.length
      continue
    }
    // The longest value after which the rest matches: the last such end within the segment or line.
    let limit = at
    while (limit < length && (part.rest ? !LINE_BREAKS.includes(path[limit]!) : path[limit] !== '/')) limit++
    let end = limit
    while (!matches[i + 1]![end]) end--
    parameters.set(part.name, path.slice(at, end))
    at = end
  }
  return parameters
}

/**
 * The site's redirects (`docs.json` `redirects`: `{ source, destination }`, with `:name` and `:name*` parameters as
 * Mintlify and Next.js write them). A link to a redirected page works on the site, but pointing it at the
 * destination is an exact fix that survives the redirect's removal.
 */
export function readRedirects(config: Record<string, unknown> | undefined): Redirect[] {
  const list = config?.redirects
  if (!Array.isArray(list)) return []
  const redirects: Redirect[] = []
  for (const entry of list) {
    if (!entry || typeof entry !== 'object') continue
    const { source, destination } = entry as { source?: unknown; destination?: unknown }
    if (typeof source !== 'string' || typeof destination !== 'string' || !source.startsWith('/')) continue
    const parts: SourcePart[] = []
    for (const part of trimEnd(source, '/').split(/(:\w+\*?)/)) {
      const parameter = /^:(\w+)(\*?)$/.exec(part)
      if (parameter) parts.push({ name: parameter[1]!, rest: parameter[2] === '*' })
      else if (part) parts.push({ text: part })
    }
    const names = parts.flatMap((part) => ('name' in part ? [part.name] : []))
    // A source with a repeated parameter name, or one a regular expression cannot name a group (`:1st`), is left out,
    // as it was when sources were made regular expressions.
    if (new Set(names).size < names.length || names.some((name) => /^\d/.test(name))) continue
    redirects.push({ source: parts.length ? parts : [{ text: '/' }], destination })
  }
  return redirects
}
