import { describe, expect, test } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { rangeLabel, rangeOf } from './range.ts'

const now = new Date('2026-03-15T10:00:00Z')

describe('analytics date ranges', () => {
  test('dates cover whole UTC days; date-times are instants, inclusive; no offset means UTC', () => {
    expect(rangeOf({ dateFrom: '2026-03-01', dateTo: '2026-03-02' }, now)).toEqual({
      from: new Date('2026-03-01T00:00:00Z'),
      to: new Date('2026-03-03T00:00:00Z'),
    })
    expect(rangeOf({ dateFrom: '2026-03-01T08:00:00+02:00', dateTo: '2026-03-01T12:00' }, now)).toEqual({
      from: new Date('2026-03-01T06:00:00Z'),
      to: new Date('2026-03-01T12:00:00.001Z'),
    })
  })

  test('the default is the last 30 days up to now; a lone dateTo reaches 30 days back', () => {
    const range = rangeOf({}, now)
    expect(range.to.getTime()).toBe(now.getTime() + 1)
    expect(range.to.getTime() - range.from.getTime()).toBe(30 * 24 * 60 * 60 * 1000)
    expect(rangeOf({ dateTo: '2026-02-28' }, now).from).toEqual(new Date('2026-01-30T00:00:00Z'))
    expect(rangeLabel(rangeOf({ dateFrom: '2026-03-01', dateTo: '2026-03-31' }, now))).toBe('2026-03-01_2026-03-31')
  })

  test('a range that ends before it starts is refused, naming the field', () => {
    expect(() => rangeOf({ dateFrom: '2026-03-02', dateTo: '2026-03-01' }, now)).toThrow(DocentError)
    expect(() => rangeOf({ dateFrom: '2026-03-02', dateTo: '2026-03-01' }, now)).toThrow(/^dateFrom: must be before dateTo$/)
  })
})
