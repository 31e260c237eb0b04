// Markdown links: the text a reader sees of them and the sources they lead to (for the extractive answer), and the
// links to other pages of the same docs (which the search index leaves out).
import type { SourceBlock } from '../assistant/prompt-format.ts'

/** The text without links' URLs and markdown markers. */
export function visibleText(text: string): string {
  return withoutLinkTargets(text, true).replace(/[*`[\]]/g, '')
}

/**
 * The text with each markdown link's `(url)` removed, and with its `[label]` too unless `keepLabels`. A scan, not a
 * regex: `\]\([^)]*\)` retried at every `](` of a long run of them is quadratic.
 */
export function withoutLinkTargets(text: string, keepLabels: boolean): string {
  let out = ''
  let from = 0
  for (let open = text.indexOf('](', from); open !== -1; open = text.indexOf('](', from)) {
    const close = text.indexOf(')', open + 2)
    if (close === -1) break
    const target = text.slice(open + 2, close)
    // A URL has no spaces; "[a] (b)" or "](see below)" is prose.
    if (keepLabels && /\s/.test(target)) {
      out += text.slice(from, open + 2)
      from = open + 2
      continue
    }
    if (keepLabels) out += text.slice(from, open + 1)
    else {
      const label = text.lastIndexOf('[', open)
      out += label >= from ? text.slice(from, label) : text.slice(from, close + 1)
    }
    from = close + 1
  }
  return out + text.slice(from)
}

/** A page's address without its anchor or trailing slash, for comparing links with sources. */
function pageAddress(url: string, base: string): string | undefined {
  try {
    const { origin, pathname } = new URL(url, base)
    let end = pathname.length
    while (end > 0 && pathname[end - 1] === '/') end--
    return `${origin}${pathname.slice(0, end)}`
  } catch {
    return undefined
  }
}

/**
 * For a passage of one source, the other sources its links lead to. An overview's "Embed the assistant in your app
 * with the [API](/api/…)" quoted from one source names another as where the answer is: the answer cites that one too.
 * The sources' own addresses are worked out once.
 */
export function sourceLinks(sources: SourceBlock[]): (text: string, sourceId: number) => number[] | undefined {
  const addresses = sources.map((source) => ({ id: source.id, url: source.url, address: pageAddress(source.url, source.url) }))
  return (text, sourceId) => {
    if (!text.includes('](')) return undefined
    const own = addresses.find((source) => source.id === sourceId)
    if (!own) return undefined
    const ids: number[] = []
    for (const target of linkTargets(text)) {
      const address = pageAddress(target, own.url)
      const source = address && addresses.find((other) => other.id !== sourceId && other.address === address)
      if (source && !ids.includes(source.id)) ids.push(source.id)
    }
    return ids.length > 0 ? ids : undefined
  }
}

/**
 * The URLs of a text's markdown links, by a scan as `withoutLinkTargets` does, for what it keeps apart: that one drops
 * each target from the text, this one collects them.
 */
function linkTargets(text: string): string[] {
  const targets: string[] = []
  // Linear: the first ")" after an opening is looked for once for all the openings before it, and a target holds no
  // other opening, so the targets read do not overlap.
  let close = -1
  for (let open = text.indexOf(']('); open !== -1; ) {
    const next = text.indexOf('](', open + 2)
    if (close < open + 2) close = text.indexOf(')', open + 2)
    if (close === -1) break
    if (next === -1 || next > close) {
      const target = text.slice(open + 2, close)
      if (target && !/\s/.test(target)) targets.push(target)
    }
    open = next
  }
  return targets
}

/**
 * A markdown link; one to a page of the same docs has a target with no scheme (`/guides/cursor`, `../setup`,
 * `#install`). Linear: the label admits no bracket and the target no parenthesis, so each attempt stops at the next
 * opening. The scheme is checked in code (SCHEME), not by a lookahead: without lookaround, recheck's automaton proves
 * the pattern.
 */
const LINK = /\[[^[\]\n]*\]\(([^()\s]*)\)/g
const SCHEME = /^[a-z][a-z\d+.-]*:/i

/** The text without its links to other pages of the same docs, label and target (see `internalLinks`). */
export function withoutInternalLinks(text: string): string {
  return text.includes('](') ? text.replace(LINK, (link, target: string) => (SCHEME.test(target) ? link : ' ')) : text
}

/**
 * The links of a text to other pages of the same docs, as written (`[Devin Desktop](/guides/devin-desktop)`). Their
 * words name the page they lead to, which holds the subject: an overview that links to every guide is not the guide.
 */
export function internalLinks(text: string): string[] {
  if (!text.includes('](')) return []
  return [...text.matchAll(LINK)].flatMap(([link, target]) => (SCHEME.test(target!) ? [] : [link]))
}

/** The page paths a text's links to other pages of the same docs lead to, without anchors (`/guides/cursor`). */
export function internalLinkPaths(text: string): string[] {
  return internalLinks(text)
    .map((link) => link.slice(link.indexOf('](') + 2, -1).split('#')[0]!)
    .filter(Boolean)
}
