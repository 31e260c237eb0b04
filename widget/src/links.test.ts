import { Lexer, type Tokens } from 'marked'
import { describe, expect, it } from 'vitest'
import { resolveLink } from './links.ts'

// Every spelling of a link that a browser would send off-site or to a script: decided on what the URL parser makes of
// it (as the browser will), never on the text as written. Each case goes through marked's lexer first, as answers do.

const PAGE = 'http://docs.example/guides/start'

/** `inert`: entities stay as written in the href (marked does not decode them), so the browser sees a same-site path. */
const CASES: Array<[markdown: string, expected: string | null | 'inert' | { external: string }]> = [
  // Ordinary links.
  ['[a](/quickstart)', 'http://docs.example/quickstart'],
  ['[a](../concepts/flags#rollouts)', 'http://docs.example/concepts/flags#rollouts'],
  ['[a](#install)', 'http://docs.example/guides/start#install'],
  ['[a](setup)', 'http://docs.example/guides/setup'],
  [
    '[a](https://github.com/org/repo)',
    {
      external: 'https://github.com/org/repo',
    },
  ],
  ['[a](HTTPS://Example.COM/x)', { external: 'https://example.com/x' }],
  ['[a](mailto:help@docs.example)', { external: 'mailto:help@docs.example' }],
  ['[a](http://docs.example/same-site)', 'http://docs.example/same-site'],
  // Written as a path, resolved off-site by the browser: a disguise, dropped.
  ['[x](/\\evil.example/p)', null],
  ['[x](<\\\\\\\\evil.example/p>)', null],
  ['[x](//evil.example/p)', null],
  ['[x](/\\/evil.example)', null],
  ['[x](\\evil.example/p)', 'http://docs.example/evil.example/p'],
  ['[x](<\t/\\evil.example>)', null],
  ['[x](< /\\evil.example>)', null],
  ['[x](</\t\\evil.example>)', null],
  ['[x](&#x2F;&#x5C;evil.example)', 'inert'],
  ['[x](&#47;&#92;evil.example)', 'inert'],
  ['[x](%2F%5Cevil.example)', 'http://docs.example/guides/%2F%5Cevil.example'],
  // Script and other schemes, however spelled.
  ['[x](javascript:alert(1))', null],
  ['[x](JaVaScRiPt:alert(1))', null],
  ['[x](<java\tscript:alert(1)>)', null],
  ['[x](<java\nscript:alert(1)>)', null],
  ['[x](< javascript:alert(1)>)', null],
  ['[x](<\u0001javascript:alert(1)>)', null],
  ['[x](&#106;avascript:alert(1))', 'inert'],
  ['[x](&#x6A;avascript&#58;alert(1))', 'inert'],
  ['[x](javascript&colon;alert(1))', 'inert'],
  ['[x](vbscript:msgbox(1))', null],
  ['[x](data:text/html,<script>alert(1)</script>)', null],
  ['[x](<data:text/html;base64,PHNjcmlwdD4=>)', null],
  ['[x](file:///etc/passwd)', null],
  ['[x](blob:http://docs.example/1)', null],
  ['[x](ftp://evil.example/)', null],
]

/** HTML character references decoded, as CommonMark says a link destination's should be (marked leaves them). */
function decodeEntities(text: string): string {
  const named: Record<string, string> = {
    colon: ':',
    sol: '/',
    bsol: '\\',
    tab: '\t',
    newline: '\n',
    amp: '&',
  }
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return named[ref.toLowerCase()] ?? whole
    return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)))
  })
}

function hrefOf(markdown: string): string {
  const paragraph = Lexer.lex(markdown, { gfm: true })[0] as Tokens.Paragraph
  const link = paragraph.tokens.find((token) => token.type === 'link') as Tokens.Link | undefined
  // Not a link at all to marked (so not rendered as one): nothing to resolve.
  return link?.href ?? ''
}

describe('links in answers', () => {
  it.each(CASES)('%s', (markdown, expected) => {
    const href = hrefOf(markdown)
    const link = href === '' ? null : resolveLink(href, PAGE)
    if (expected === null) expect(link).toBeNull()
    else if (expected === 'inert') {
      expect(link === null || (link.href.startsWith('http://docs.example/') && !link.external)).toBe(true)
      // Decoded as CommonMark would, the same text is refused outright.
      expect(resolveLink(decodeEntities(href), PAGE)).toBeNull()
    } else if (typeof expected === 'string') {
      expect(link).toEqual({ href: expected, external: false })
    } else expect(link).toEqual({ href: expected.external, external: true })
  })

  it('never returns a link the browser would open off-site unless marked external, nor any script scheme', () => {
    for (const [markdown] of CASES) {
      const href = hrefOf(markdown)
      const link = href === '' ? null : resolveLink(href, PAGE)
      if (!link) continue
      const url = new URL(link.href)
      expect(['http:', 'https:', 'mailto:']).toContain(url.protocol)
      if (url.origin !== new URL(PAGE).origin) {
        expect(link.external, markdown).toBe(true)
      }
    }
  })

  it('reads long runs of controls and spaces around or inside a link once, as the URL parser does', () => {
    const run = ' \u0001\t'.repeat(50_000)
    expect(resolveLink(`${run}javascript:alert(1)${run}`, PAGE)).toBeNull()
    expect(resolveLink(`${run}https://example.com/a${run}`, PAGE)).toEqual({ href: 'https://example.com/a', external: true })
    const inside = `https://example.com/a${'\u0001'.repeat(100_000)}b`
    expect(resolveLink(inside, PAGE)).toEqual({ href: new URL(inside).href, external: true })
  })
})
