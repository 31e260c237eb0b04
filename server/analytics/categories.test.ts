import { describe, expect, test } from 'vitest'
import type { PageInfo } from '../search/types.ts'
import { categoriesOf } from './categories.ts'

const page = (path: string, groups: string[]): PageInfo => ({ path, url: `/${path}`, title: path, hidden: false, inContext: true, groups })

describe('categories from the navigation', () => {
  test('a site-wide tab is skipped for the group under it; a site without tabs uses its top groups', () => {
    const tabbed = categoriesOf([
      page('index', ['Guides', 'Get started']),
      page('quickstart', ['Guides', 'Get started']),
      page('concepts/flags', ['Guides', 'Core concepts']),
      page('sdks/go', ['Guides', 'SDKs', 'Languages']),
      page('sdks/react', ['Guides', 'SDKs', 'Frameworks']),
      page('api/flags', ['API reference', 'Flags']),
      page('hidden', []),
    ])
    expect(Object.fromEntries(tabbed)).toEqual({
      index: 'Get started',
      quickstart: 'Get started',
      'concepts/flags': 'Core concepts',
      'sdks/go': 'SDKs',
      'sdks/react': 'SDKs',
      'api/flags': 'API reference',
    })
    const flat = categoriesOf([
      page('a', ['Start']),
      page('b', ['Start']),
      page('c', ['Reference', 'CLI']),
      page('d', ['Reference', 'API']),
    ])
    expect(Object.fromEntries(flat)).toEqual({ a: 'Start', b: 'Start', c: 'Reference', d: 'Reference' })
  })

  test('one group holding every page is still a category', () => {
    expect(Object.fromEntries(categoriesOf([page('a', ['Docs']), page('b', ['Docs'])]))).toEqual({ a: 'Docs', b: 'Docs' })
  })
})
