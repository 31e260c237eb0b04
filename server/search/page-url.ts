import type { Section } from './types.ts'

/** The URL path a Mintlify-style site serves a page at: `sdks/javascript` → `/sdks/javascript`, `index` → `/`, `cli/index` → `/cli`. */
export function pageUrl(path: string): string {
  const parts = path.split('/').filter(Boolean)
  if (parts.at(-1) === 'index') parts.pop()
  return `/${parts.join('/')}`
}

/**
 * A page's URL (`pageUrl`: a path as the files name it, not percent-encoded) written as a link: each segment
 * percent-encoded, so that `%`, `#`, `?`, spaces and non-ASCII in a file name stay part of the path (a file named
 * `%2e%2e.mdx` is at `/%252e%252e`, `a#b.mdx` at `/a%23b`), and parentheses too, which end a markdown link. A server
 * decodes the path once and finds the page's URL again.
 */
export function pageHref(url: string): string {
  return url
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/')
}

/** The URL of the page a section is on: its `url` less its anchor. A page's own URL may hold a `#` (`a#b.mdx`). */
export function sectionPageUrl({ url, anchor }: Pick<Section, 'url' | 'anchor'>): string {
  return anchor && url.endsWith(`#${anchor}`) ? url.slice(0, -(anchor.length + 1)) : url
}

/** A section written as a link: its page's URL percent-encoded (`pageHref`), then its anchor. */
export function sectionHref(section: Pick<Section, 'url' | 'anchor'>): string {
  const page = sectionPageUrl(section)
  return pageHref(page) + section.url.slice(page.length)
}
