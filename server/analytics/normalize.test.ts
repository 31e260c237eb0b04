import { describe, expect, test } from 'vitest'
import { cleanLine, normalizeQuery, pageUrlOf } from './normalize.ts'

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
})
