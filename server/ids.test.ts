import { expect, test } from 'vitest'
import { newId, newJobId, newRunId, randomId } from './ids.ts'

test('ids: unguessable, URL-safe, with the shape each kind documents', () => {
  expect(randomId(32)).toMatch(/^[A-Za-z0-9]{32}$/)
  expect(newJobId()).toMatch(/^[A-Za-z0-9]{22}$/)
  expect(newRunId()).toMatch(/^run_[A-Za-z0-9]{20}$/)
  expect(newId('thr')).toMatch(/^thr_[A-Za-z0-9_-]{22}$/)
  expect(newId('msg')).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
  expect(new Set(Array.from({ length: 1_000 }, () => newJobId())).size).toBe(1_000)
})
