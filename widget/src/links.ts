import { C0_CONTROL_OR_SPACE, trimBoth } from '../../shared/trim.ts'

/** A link as the widget renders it: the URL the browser will open, and whether it leaves the page's site. */
export interface SafeLink {
  href: string
  external: boolean
}

/**
 * A markdown link or image, its text in group 1: where snippets and screen-reader text keep the text and drop the
 * target. Link text holds no bracket and a target no parenthesis: with `[^\]]*`, each `[` of a run read the rest of it.
 */
export const MARKDOWN_LINK = /!?\[([^[\]]*)\]\([^()]*\)/g

const LIVE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:'])
/** Written with a scheme (`https:`, `mailto:`): the author meant another site. A `//host` path is not trusted. */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i

/**
 * Resolves a link exactly as the browser will (`new URL` strips tabs and newlines, trims spaces, reads `\` as `/`,
 * lowercases schemes) and decides on that result, never on the text as written: only http(s) and mailto are live,
 * and a link written as a path that the browser would send off-site (`/\evil.example`, `//evil.example`) is dropped
 * as a disguise.
 * What is returned is the resolved URL, so what the reader sees is what they get.
 */
export function resolveLink(href: string, base: string): SafeLink | null {
  let url: URL
  let page: URL
  try {
    url = new URL(href, base)
    page = new URL(base)
  } catch {
    return null
  }
  if (!LIVE_PROTOCOLS.has(url.protocol)) return null
  if (url.protocol === 'mailto:') return { href: url.href, external: true }
  const sameSite = url.origin === page.origin
  // The written form, as the URL parser sees it: C0 controls and spaces trimmed, tabs and newlines removed.
  const written = trimBoth(href, C0_CONTROL_OR_SPACE).replace(/[\t\n\r]/g, '')
  if (!sameSite && !ABSOLUTE.test(written)) return null
  return { href: url.href, external: !sameSite }
}

/** `resolveLink` against the page the widget is on. */
export function safeLink(href: string): SafeLink | null {
  return resolveLink(href, location.href)
}
