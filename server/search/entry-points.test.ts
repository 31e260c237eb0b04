import { expect, test } from 'vitest'
import { asksForStatus } from './entry-points.ts'

test('the words that ask whether the service is up: the first, and the last "down" within 30 characters of its verb', () => {
  expect(asksForStatus('is the api down right now?')).toBe('is the api down')
  expect(asksForStatus('are your servers down?')).toBe('are your servers down')
  expect(asksForStatus('is it down or down')).toBe('is it down or down')
  expect(asksForStatus('any outages today? is it down')).toBe('outages')
  expect(asksForStatus('is the status page up')).toBe('status page')
  expect(asksForStatus('this is down')).toBe('is down')
  expect(asksForStatus('is it downtime')).toBeUndefined()
  expect(asksForStatus('is the dashboard for my whole organization down')).toBeUndefined()
})

test('a long question is read in time linear in it', () => {
  expect(asksForStatus('is wcu '.repeat(100_000))).toBeUndefined()
  expect(asksForStatus(`is ${'x '.repeat(50_000)}down`)).toBeUndefined()
  expect(asksForStatus(`${'is '.repeat(100_000)}down`)).toBe(`${'is '.repeat(11)}down`)
})
