import { describe, expect, test } from 'vitest'
import { rangeFrom, rangeQuery } from './range.ts'
import { hrefOf, placeOf } from './router.ts'

const NOW = Date.UTC(2026, 10, 23, 15, 0)

describe('date range', () => {
  test('presets count back from today, whole days; a custom range is taken as given; anything else is 30 days', () => {
    expect(rangeFrom(new URLSearchParams('range=7d'), NOW)).toEqual({ from: '2026-11-17', to: '2026-11-23', preset: '7d' })
    expect(rangeFrom(new URLSearchParams(''), NOW)).toEqual({ from: '2026-10-25', to: '2026-11-23', preset: '30d' })
    expect(rangeFrom(new URLSearchParams('range=5y'), NOW).preset).toBe('30d')
    expect(rangeFrom(new URLSearchParams('from=2026-01-01&to=2026-01-31'), NOW)).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      preset: 'custom',
    })
    expect(rangeFrom(new URLSearchParams('from=yesterday&to=2026-01-31'), NOW).preset).toBe('30d')
    expect(rangeFrom(new URLSearchParams('from=2026-02-10&to=2026-01-31'), NOW)).toEqual({
      from: '2026-01-31',
      to: '2026-02-10',
      preset: 'custom',
    })
  })

  test('the API query covers the last day whole', () => {
    const range = { from: '2026-01-30', to: '2026-02-01', preset: 'custom' }
    expect(rangeQuery(range)).toBe('dateFrom=2026-01-30T00:00:00.000Z&dateTo=2026-02-01T23:59:59.999Z')
  })
})

describe('router', () => {
  test('places and links round-trip, with odd ids encoded', () => {
    const href = hrefOf('demo', 'gaps', 'gap/1 x', 'status=open')
    expect(href).toBe('/console/demo/gaps/gap%2F1%20x?status=open')
    const url = new URL(href, 'http://x')
    expect(placeOf(url)).toMatchObject({ project: 'demo', screen: 'gaps', id: 'gap/1 x' })
    expect(placeOf({ pathname: '/console', search: '' })).toMatchObject({ project: null, screen: null, id: null })
    expect(placeOf({ pathname: '/console/demo/%E0%A4%A', search: '' }).screen).toBe('%E0%A4%A')
  })
})
