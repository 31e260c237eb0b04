import { describe, expect, test } from 'vitest'
import { cleanLine, docsPath, normalizeQuery, pageUrlOf } from './normalize.ts'

describe('reader-sent text as analytics keeps it', () => {
  test('one line, without control characters; a search in lower case', () => {
    expect(cleanLine('  How do\u0000 I\n\tinstall?  ')).toBe('How do I install?')
    expect(cleanLine('x'.repeat(600)).length).toBe(500)
    expect(normalizeQuery('Webhooks ')).toBe('webhooks')
  })

  test('the page a reader asked from is a URL on the site: a path on its base, a full URL only on its origin', () => {
    const base = 'https://docs.acme.com/'
    expect(pageUrlOf(base, '/guides/rollouts#percent')).toBe('https://docs.acme.com/guides/rollouts#percent')
    expect(pageUrlOf(base, 'guides/rollouts')).toBe('https://docs.acme.com/guides/rollouts')
    expect(pageUrlOf(base, 'https://docs.acme.com/sdks?lang=go')).toBe('https://docs.acme.com/sdks?lang=go')
    expect(pageUrlOf(base, undefined)).toBeNull()
    expect(pageUrlOf(base, ' \u0000 ')).toBeNull()
    // Another host's URL would show in the console as "/phish" and lead off-site: only its path is kept.
    expect(pageUrlOf(base, 'https://evil.example/phish')).toBe('https://docs.acme.com/phish')
    expect(pageUrlOf(base, 'HTTP://docs.acme.com.evil.example/x')).toBe('https://docs.acme.com/x')
    expect(pageUrlOf(base, 'http://docs.acme.com/x')).toBe('https://docs.acme.com/x')
    // A scheme that is no web page stays a path on the site.
    expect(pageUrlOf(base, 'javascript:alert(1)')).toBe('https://docs.acme.com/javascript:alert(1)')
  })

  test('a clicked page is a path on the docs site, as the widget sends one; a URL, a scheme, a formula or markup is none', () => {
    // A search result's page path, a source link's URL path (percent-encoded), a page file's own letters.
    for (const path of [
      '/quickstart',
      'sdks/javascript',
      '/fr/gu%C3%ADa',
      'fr/guía',
      '/',
      'index',
      'api/v1:batch',
      "/it's (new)",
      'my page',
    ])
      expect(docsPath(path), path).toBe(path)
    // A place on the page is the page.
    expect(docsPath('/fr/guide#anchor')).toBe('/fr/guide')
    expect(docsPath(' /sdks?lang=go ')).toBe('/sdks')
    for (const other of [
      'https://evil.example/phish',
      'HTTP://evil.example',
      '//evil.example/phish',
      '\\\\evil.example\\phish',
      '/\\evil.example',
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'mailto:a@b.example',
      '=HYPERLINK("https://evil.example","Docs")',
      '+1-555-0100',
      '-2+3',
      '@SUM(A1)',
      '/<img src=x onerror=alert(1)>',
      '/a"b',
      '/{x}',
      '#anchor',
      '?q=1',
      '',
      ' \u0000 ',
    ])
      expect(docsPath(other), other).toBeNull()
  })
})
