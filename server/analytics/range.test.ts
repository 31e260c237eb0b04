import { describe, expect, test } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { bucketFor, bucketStarts, MAX_BUCKETS, rangeLabel, rangeOf } from './range.ts'

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

  test('a range that starts before year 1 (what the stores can read) is refused, naming the field; one that ends past 9999 stops there', () => {
    const refused: Array<[{ dateFrom?: string; dateTo?: string }, RegExp]> = [
      [{ dateFrom: '0000-01-01' }, /^dateFrom: must be 0001-01-01 or later$/],
      [{ dateFrom: '0001-01-01T00:00:00+01:00' }, /^dateFrom: must be 0001-01-01 or later$/],
      [{ dateFrom: '0000-12-31T23:59:59.999Z', dateTo: '2026-01-01' }, /^dateFrom: must be 0001-01-01 or later$/],
      [{ dateTo: '0000-06-01' }, /^dateTo: must be 0001-01-01 or later$/],
    ]
    for (const [query, message] of refused) {
      expect(() => rangeOf(query, now), JSON.stringify(query)).toThrow(DocentError)
      expect(() => rangeOf(query, now), JSON.stringify(query)).toThrow(message)
    }
    // The edges themselves are fine; a lone dateTo near year 1 reaches back no further than year 1.
    expect(rangeOf({ dateFrom: '0001-01-01', dateTo: '9999-12-30' }, now)).toEqual({
      from: new Date('0001-01-01T00:00:00Z'),
      to: new Date('9999-12-31T00:00:00Z'),
    })
    expect(rangeOf({ dateTo: '9999-12-31T23:59:59.998Z' }, now).to).toEqual(new Date('9999-12-31T23:59:59.999Z'))
    // "Until 9999-12-31" (a date covers its whole day, so year 10000 would start there) means until the end: the range
    // stops at the last instant the stores hold.
    for (const dateTo of ['9999-12-31', '9999-12-31T23:30:00-01:00', '9999-12-31T23:59:59.999Z']) {
      expect(rangeOf({ dateFrom: '2026-01-01', dateTo }, now).to, dateTo).toEqual(new Date('9999-12-31T23:59:59.999Z'))
    }
    expect(rangeOf({ dateTo: '0001-01-02' }, now).from).toEqual(new Date('0001-01-01T00:00:00Z'))
  })

  test('a summary bucket counts any range the API takes in at most 180 buckets; past 180 years there is none, a 400 naming dateFrom', () => {
    const fits = (dateFrom: string, dateTo: string) => {
      const range = rangeOf({ dateFrom, dateTo }, now)
      const bucket = bucketFor(range)
      return [bucket, bucketStarts(range, bucket)!.length]
    }
    expect(fits('2026-06-04', '2026-11-30')).toEqual(['day', 180])
    expect(fits('1847-01-01', '2026-11-30')).toEqual(['year', 180])
    expect(fits('9820-01-01', '9999-12-31')).toEqual(['year', 180])
    const refused: Array<[string, string, string]> = [
      ['1846-12-31', '2026-11-30', '1847-01-01'],
      ['0001-01-01', '9999-12-31', '9820-01-01'],
      ['0001-01-01', '0181-01-01', '0002-01-01'],
    ]
    for (const [dateFrom, dateTo, earliest] of refused) {
      const range = rangeOf({ dateFrom, dateTo }, now)
      expect(() => bucketFor(range), dateFrom).toThrow(DocentError)
      expect(() => bucketFor(range), dateFrom).toThrow(
        `dateFrom: a summary counts at most ${MAX_BUCKETS} years (${MAX_BUCKETS} buckets of a year); for a range ending in ${dateTo.slice(0, 4)}, start on ${earliest} or later`,
      )
    }
  })
})
