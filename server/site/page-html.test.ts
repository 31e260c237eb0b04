import { describe, expect, test } from 'vitest'
import { MAX_DEPTH, MAX_INLINE_DELIMITERS, MAX_RENDERED_CHARS, renderPageHtml } from './page-html.ts'
import { safeUrl } from './safe-url.ts'
import { escapeHtml } from './html.ts'

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

describe('pages the renderer would take seconds over, or overflow its stack on', () => {
  test('a run of inline markup with more delimiters than any prose is shown as text', () => {
    const run = '_a'.repeat(MAX_INLINE_DELIMITERS)
    const { html } = renderPageHtml(`Intro *kept*.\n\n${run} <script>x</script>`)
    expect(html).toContain('<em>kept</em>')
    expect(html).toContain(`<p>${run} &lt;script&gt;x&lt;/script&gt;</p>`)
    // The most a real run holds (78: language codes in backticks) is still formatted.
    const codes = Array.from({ length: 39 }, (_, i) => `\`c${i}\``).join(', ')
    expect(renderPageHtml(`**Codes:** ${codes}`).html.match(/<code>/g)).toHaveLength(39)
  })

  test.each([
    ['quotes', `${'> '.repeat(20_000)}deep`],
    ['emphasis', `${'*'.repeat(20_000)}deep${'*'.repeat(20_000)}`],
    ['lists', Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i * 2)}- deep`).join('\n')],
    ['links', `${'['.repeat(5_000)}deep${'](x)'.repeat(5_000)}`],
  ])('%s nested thousands of levels deep keep their content, as text past the limit', (_, markdown) => {
    const { html } = renderPageHtml(markdown)
    expect(html).toContain('deep')
    expect(html.split('<blockquote>').length - 1).toBeLessThanOrEqual(MAX_DEPTH)
    expect(html.split('<ul>').length - 1).toBeLessThanOrEqual(MAX_DEPTH)
  })

  test('quotes and lists a few levels deep render as usual', () => {
    const { html } = renderPageHtml('> outer\n> > inner\n\n- a\n  - b\n    - c')
    expect(html.split('<blockquote>').length - 1).toBe(2)
    expect(html.split('<ul>').length - 1).toBe(3)
  })

  test('a page longer than the renderer takes is shown as escaped paragraphs', () => {
    const paragraph = `Some **text** <img src=x onerror=alert(1)> ${'words '.repeat(1_000)}`
    const markdown = Array.from({ length: Math.ceil(MAX_RENDERED_CHARS / paragraph.length) + 1 }, () => paragraph).join('\n\n')
    const { html, toc } = renderPageHtml(`## Heading\n\n${markdown}`)
    expect(toc).toEqual([])
    expect(html).not.toMatch(/<img|<strong>/)
    expect(html).toContain(escapeHtml('Some **text** <img src=x onerror=alert(1)>'))
    expect(html.split('<p class="plain">').length - 1).toBeGreaterThan(MAX_RENDERED_CHARS / paragraph.length)
  })
})
