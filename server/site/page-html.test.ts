import { describe, expect, test } from 'vitest'
import { renderPageHtml } from './page-html.ts'
import { safeUrl } from './safe-url.ts'

const hrefs = (markdown: string) => [...renderPageHtml(markdown).html.matchAll(/<(?:a|img) [^>]*(?:href|src)="([^"]*)"/g)].map((m) => m[1])

// Every spelling a browser reads as a script (or another non-web scheme): the URL parser drops leading and trailing
// controls and spaces, removes tabs and newlines anywhere, and ignores case.
const dangerous = [
  '[x](javascript:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](<java\tscript:alert(1)>)',
  '[x](<java\rscript:alert(1)>)',
  '[x](< javascript:alert(1)>)',
  '[x](<\u0001javascript:alert(1)>)',
  '[x](<javascript:alert(1) >)',
  '[x](<\tjavascript:alert(1)>)',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html,<script>alert(1)</script>)',
  '[x](file:///etc/passwd)',
  '[x][ref]\n\n[ref]: <java\tscript:alert(1)>',
  '![i](<java\tscript:alert(1)>)',
  '![i](data:image/svg+xml,<svg onload=alert(1)>)',
]

const kept: Array<[string, string, boolean]> = [
  ['[x](/quickstart)', '/quickstart', false],
  ['[x](#install)', '#install', false],
  ['[x](../concepts/flags)', '../concepts/flags', false],
  ['[x](https://example.com/a?b#c)', 'https://example.com/a?b#c', true],
  ['[x](mailto:docs@example.com)', 'mailto:docs@example.com', true],
  // Looks relative, leaves the site: written out, so nobody mistakes it for one of ours.
  ['[x](//evil.example/p)', 'https://evil.example/p', true],
  ['[x](/\\evil.example/p)', 'https://evil.example/p', true],
]

describe('links in rendered pages', () => {
  test.each(dangerous)('%j renders as text, with no link', (markdown) => {
    const { html } = renderPageHtml(markdown)
    expect(hrefs(markdown)).toEqual([])
    expect(html).not.toMatch(/href=|src=/)
  })

  test.each(kept)('%j links to %s', (markdown, href, external) => {
    const { html } = renderPageHtml(markdown)
    expect(hrefs(markdown)).toEqual([href])
    expect(html.includes('rel="noopener"')).toBe(external)
  })

  test('an entity-encoded scheme stays inert text in the attribute', () => {
    // The browser decodes the attribute once: `&#38;#106;` becomes the literal `&#106;`, a relative path, not `j`.
    expect(hrefs('[x](&#106;avascript:alert(1))')).toEqual(['&#38;#106;avascript:alert(1)'])
  })

  test('long runs of controls and spaces around a link are dropped as the URL parser drops them, read once', () => {
    // `/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g` read the rest of a run from each of its characters.
    const run = ' \u0001\t'.repeat(50_000)
    expect(safeUrl(`${run}javascript:alert(1)${run}`)).toBeNull()
    expect(safeUrl(`${run}https://example.com/a${run}`)).toEqual({ href: 'https://example.com/a', external: true })
    expect(safeUrl(`${run}/quickstart${run}`)).toEqual({ href: '/quickstart', external: false })
    const inside = `https://example.com/a${'\u0001'.repeat(100_000)}b`
    expect(safeUrl(inside)).toEqual({ href: inside, external: true })
  })
})
