import { expect, test } from 'vitest'
import { SizedCache } from './sized-cache.ts'

test('the least recently used values leave first once the total size passes the limit', () => {
  const cache = new SizedCache<string>(10, (value) => value.length)
  cache.set('a', 'aa')
  cache.set('b', 'bb')
  cache.set('c', 'cc')
  expect(cache.get('a')).toBe('aa') // now the most recent
  cache.set('d', 'dd')
  cache.set('e', 'ee')
  cache.set('f', 'ff') // 12 > 10: the least recent (b) leaves
  expect(cache.get('b')).toBeUndefined()
  expect(['a', 'c', 'd', 'e', 'f'].map((key) => cache.get(key))).toEqual(['aa', 'cc', 'dd', 'ee', 'ff'])
})

test('a value over a quarter of the limit is not kept, and a key keeps its first value', () => {
  const cache = new SizedCache<string>(10, (value) => value.length)
  cache.set('big', 'xxx')
  expect(cache.get('big')).toBeUndefined()
  cache.set('k', 'v1')
  cache.set('k', 'v2')
  expect(cache.get('k')).toBe('v1')
})
