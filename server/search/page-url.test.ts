import { describe, expect, test } from 'vitest'
import { pageHref, pageUrl, sectionHref, sectionPageUrl } from './page-url.ts'

describe('pageHref', () => {
  test('encodes each segment of a page URL once, so that decoding the path once gives the URL back', () => {
    const urls = ['/', '/sdks/go', '/%2e%2e', '/%41', '/100%', '/a b/c', '/a#b', '/a?b', '/café', '/f(x)', '/日本語/ページ']
    for (const url of urls) {
      const href = pageHref(url)
      expect(href, url).toMatch(/^[A-Za-z0-9\-._~!$&'*+,;=:@%/]*$/)
      expect(decodeURIComponent(href), url).toBe(url)
      expect(new URL(href, 'https://h.test').pathname, url).toBe(href)
    }
    expect(pageHref(pageUrl('guides/%2e%2e'))).toBe('/guides/%252e%252e')
    expect(pageHref('/f(x)')).toBe('/f%28x%29')
  })
})

describe('sectionHref', () => {
  test('encodes the page part of a section URL and keeps its anchor; a `#` of the page’s name is the page’s', () => {
    expect(sectionHref({ url: '/sdks/go#install', anchor: 'install' })).toBe('/sdks/go#install')
    expect(sectionHref({ url: '/a b#x', anchor: 'x' })).toBe('/a%20b#x')
    expect(sectionHref({ url: '/a#b#x', anchor: 'x' })).toBe('/a%23b#x')
    expect(sectionHref({ url: '/a#b', anchor: '' })).toBe('/a%23b')
    expect(sectionPageUrl({ url: '/a#b#x', anchor: 'x' })).toBe('/a#b')
  })
})
