import { C0_CONTROL_OR_SPACE, trimBoth } from '../../shared/trim.ts'

/** A base no real link has: relative links resolve against it, so its host tells a relative link from an external one. */
const BASE = 'https://docent.invalid/'

export interface SafeUrl {
  /** What to write in the attribute: the link as given (cleaned), or the absolute URL a browser would go to. */
  href: string
  /** Leaves the site: another host, or a scheme such as `mailto:`. */
  external: boolean
}

/**
 * The link a browser would follow for `href`, or null when it is not one of `schemes`. Decided on the URL as the WHATWG
 * URL parser reads it (as browsers do): leading and trailing control characters and spaces are dropped and tabs and
 * newlines removed anywhere, so `java\tscript:`, ` javascript:` and `JAVASCRIPT:` are all `javascript:`; and `\` counts
 * as `/`, so `/\evil.example/p` is the external `https://evil.example/p`, written out as such.
 */
export function safeUrl(href: string, schemes: readonly string[] = ['http:', 'https:', 'mailto:']): SafeUrl | null {
  const cleaned = trimBoth(href, C0_CONTROL_OR_SPACE).replace(/[\t\n\r]/g, '')
  let url: URL
  try {
    url = new URL(cleaned, BASE)
  } catch {
    return null
  }
  if (!schemes.includes(url.protocol)) return null
  if (url.origin === new URL(BASE).origin) return { href: cleaned, external: false }
  // A link that names its scheme stays as written; one that only looks relative (`//host`, `/\host`) is spelled out.
  return { href: /^[a-z][a-z\d+.-]*:/i.test(cleaned) ? cleaned : url.href, external: true }
}
