import { describe, expect, test } from 'vitest'
import { renderPageHtml } from './page-html.ts'

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
})
