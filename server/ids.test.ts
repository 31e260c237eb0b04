import { expect, test } from 'vitest'
import { randomBase64Url, randomId, randomIds, sequentialIds } from './ids.ts'

test('ids: unguessable, URL-safe, with the shape each kind documents', () => {
  expect(randomId(32)).toMatch(/^[A-Za-z0-9]{32}$/)
  expect(randomBase64Url(32)).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(randomIds('job')).toMatch(/^[A-Za-z0-9]{22}$/)
  expect(randomIds('run')).toMatch(/^run_[A-Za-z0-9]{20}$/)
  expect(randomIds('thread')).toMatch(/^thr_[A-Za-z0-9_-]{22}$/)
  expect(randomIds('message')).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
  expect(randomIds('gap')).toMatch(/^gap_[A-Za-z0-9_-]{22}$/)
  expect(randomIds('search')).toMatch(/^srch_[A-Za-z0-9_-]{22}$/)
  expect(randomIds('click')).toMatch(/^clk_[A-Za-z0-9_-]{22}$/)
  expect(randomIds('automation')).toMatch(/^auto_[A-Za-z0-9]{16}$/)
  expect(randomIds('trigger')).toMatch(/^manual:[A-Za-z0-9]{16}$/)
  expect(randomIds('worker')).toMatch(/^worker_[A-Za-z0-9]{12}$/)
  expect(new Set(Array.from({ length: 1_000 }, () => randomIds('job'))).size).toBe(1_000)
})

test('sequential ids count per kind and keep the prefixes', () => {
  const ids = sequentialIds()
  expect([ids('thread'), ids('message'), ids('message'), ids('job'), ids('run'), ids('thread')]).toEqual([
    'thr_1',
    'msg_1',
    'msg_2',
    'job1',
    'run_1',
    'thr_2',
  ])
  // Each source counts on its own.
  expect(sequentialIds()('thread')).toBe('thr_1')
})
