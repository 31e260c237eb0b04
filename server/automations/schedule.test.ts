import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DocentError } from '../../shared/errors.ts'
import { dueSlot, MAX_MISSED_COUNT, parseSchedule, scheduleProblem, slotsBetween } from './schedule.ts'

const at = (iso: string) => new Date(iso)
const iso = (dates: Array<Date | null>) => dates.map((date) => date?.toISOString() ?? null)
/** Local wall-clock time of an instant in a zone, `2026-03-08 03:00`, to read DST cases as a person would. */
const local = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(date)

describe('parseSchedule', () => {
  it('reads ranges, steps, lists and names, in a time zone', () => {
    const schedule = parseSchedule('0 9-17/4 * jan-mar mon,wed-fri', 'Europe/Paris')
    // Monday 5 January, then Tuesday (not listed); Paris is UTC+1 in January: 09:00, 13:00, 17:00 local.
    const slots = slotsBetween(schedule, at('2026-01-05T00:00:00Z'), at('2026-01-07T00:00:00Z'))
    expect(iso(slots)).toEqual(['2026-01-05T08:00:00.000Z', '2026-01-05T12:00:00.000Z', '2026-01-05T16:00:00.000Z'])
    expect(schedule.timeZone).toBe('Europe/Paris')
  })

  it('combines day of month and day of week with OR when both are restricted, and uses the other when one is *', () => {
    const days = (cron: string) =>
      slotsBetween(parseSchedule(cron), at('2026-03-01T00:00:00Z'), at('2026-03-31T23:59:00Z')).map((date) => date.getUTCDate())
    expect(days('0 0 1,15 * mon')).toEqual([2, 9, 15, 16, 23, 30])
    expect(days('0 0 * * mon')).toEqual([2, 9, 16, 23, 30])
    expect(days('0 0 15 * *')).toEqual([15])
    expect(days('0 0 1 * *')).toEqual([])
    // 0 and 7 are both Sunday; names are case-insensitive.
    expect(days('0 0 * * 7')).toEqual(days('0 0 * * SUN'))
  })

  it('defaults to UTC and canonicalizes the zone name', () => {
    expect(parseSchedule('0 0 * * *').timeZone).toBe('UTC')
    expect(parseSchedule('0 0 * * *', 'europe/berlin').timeZone).toBe('Europe/Berlin')
  })

  it('refuses bad input with a message naming the field', () => {
    const problem = (cron: string, zone?: string) => scheduleProblem(cron, zone)
    expect(problem('* * *')).toBe('trigger.cron: expected 5 fields "m h dom mon dow" (e.g. "0 9 * * mon"), got 3: "* * *"')
    expect(problem('0 0 * * * *')).toMatch(/^trigger\.cron: expected 5 fields .* got 6/)
    expect(problem('61 * * * *')).toBe('trigger.cron: invalid value for minute: 61 in "61 * * * *"')
    expect(problem('0 0 * * 8')).toMatch(/^trigger\.cron: invalid value for day of week: 8/)
    expect(problem('*/0 * * * *')).toMatch(/^trigger\.cron: .*stepping/)
    expect(problem('5-1 * * * *')).toMatch(/^trigger\.cron: from value is larger than to value/)
    expect(problem('a b c d e')).toMatch(/^trigger\.cron: .*illegal characters/)
    expect(problem('')).toMatch(/^trigger\.cron: must not be empty/)
    expect(problem('0 0 31 2 *')).toMatch(/^trigger\.cron: "0 0 31 2 \*" never matches a date/)
    expect(problem('0 0 * * *', 'Mars/Olympus')).toMatch(/^trigger\.timeZone: unknown time zone "Mars\/Olympus"/)
    expect(problem('0 0 * * *', '')).toMatch(/^trigger\.timeZone: /)
    expect(problem('0 0 29 2 *')).toBeNull()
    try {
      parseSchedule('61 * * * *')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(DocentError)
      expect(error).toMatchObject({ code: 'invalid_request', data: { field: 'trigger.cron' } })
    }
  })

  it('names an out-of-range field as written, though croner counts days and months from zero', () => {
    const problem = (cron: string) => scheduleProblem(cron)
    expect(problem('0 0 32 * *')).toBe('trigger.cron: invalid value for day of month: 32 in "0 0 32 * *"')
    expect(problem('0 0 0 * *')).toBe('trigger.cron: invalid value for day of month: 0 in "0 0 0 * *"')
    expect(problem('0 0 * 13 *')).toBe('trigger.cron: invalid value for month: 13 in "0 0 * 13 *"')
    expect(problem('0 0 * 0 *')).toBe('trigger.cron: invalid value for month: 0 in "0 0 * 0 *"')
    // A range or list is named whole: croner reports only the first value past the bound, shifted (40 → 39).
    expect(problem('0 0 1,40 * *')).toBe('trigger.cron: invalid value for day of month: 1,40 in "0 0 1,40 * *"')
    expect(problem('0 0 32W * *')).toBe('trigger.cron: invalid value for day of month: 32W in "0 0 32W * *"')
    expect(problem('0 25 * * *')).toBe('trigger.cron: invalid value for hour: 25 in "0 25 * * *"')
    expect(problem('0 0 * * 7-9')).toBe('trigger.cron: invalid value for day of week: 7-9 in "0 0 * * 7-9"')
  })

  it('returns the next slot strictly after an instant', () => {
    const hourly = parseSchedule('0 * * * *')
    expect(hourly.next(at('2026-01-01T05:00:00Z'))?.toISOString()).toBe('2026-01-01T06:00:00.000Z')
    expect(hourly.next(at('2026-01-01T04:59:59.999Z'))?.toISOString()).toBe('2026-01-01T05:00:00.000Z')
    expect(parseSchedule('0 0 29 2 *').next(at('2026-03-01T00:00:00Z'))?.toISOString()).toBe('2028-02-29T00:00:00.000Z')
  })
})

describe('daylight saving time', () => {
  // America/New_York: 2026-03-08 02:00 → 03:00, 2026-11-01 02:00 → 01:00.
  // Europe/Berlin: 2026-03-29 02:00 → 03:00, 2026-10-25 03:00 → 02:00.
  const daily = (cron: string, zone: string, from: string, days: number) =>
    slotsBetween(parseSchedule(cron, zone), at(from), new Date(at(from).getTime() + days * 86_400_000)).map((date) => local(date, zone))

  it('runs a fixed time that does not exist once, at the end of the gap (New York and Berlin)', () => {
    expect(daily('30 2 * * *', 'America/New_York', '2026-03-07T00:00:00Z', 3)).toEqual([
      '2026-03-07 02:30',
      '2026-03-08 03:00',
      '2026-03-09 02:30',
    ])
    expect(daily('30 2 * * *', 'Europe/Berlin', '2026-03-28T00:00:00Z', 3)).toEqual([
      '2026-03-28 02:30',
      '2026-03-29 03:00',
      '2026-03-30 02:30',
    ])
  })

  it('runs a fixed time that occurs twice once, at its first occurrence (New York and Berlin)', () => {
    const ny = slotsBetween(parseSchedule('30 1 * * *', 'America/New_York'), at('2026-10-31T00:00:00Z'), at('2026-11-03T00:00:00Z'))
    expect(iso(ny)).toEqual(['2026-10-31T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z'])
    const berlin = slotsBetween(parseSchedule('30 2 * * *', 'Europe/Berlin'), at('2026-10-24T00:00:00Z'), at('2026-10-27T00:00:00Z'))
    // 02:30 CEST (00:30Z) is the first pass on the 25th; 02:30 CET (01:30Z) the same day does not run again.
    expect(iso(berlin)).toEqual(['2026-10-24T00:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'])
  })

  it('runs an interval job on both passes of a repeated hour and skips the missing one', () => {
    const fall = slotsBetween(parseSchedule('*/30 * * * *', 'America/New_York'), at('2026-11-01T04:00:00Z'), at('2026-11-01T07:00:00Z'))
    expect(fall.map((date) => local(date, 'America/New_York'))).toEqual([
      '2026-11-01 00:30',
      '2026-11-01 01:00',
      '2026-11-01 01:30',
      '2026-11-01 01:00',
      '2026-11-01 01:30',
      '2026-11-01 02:00',
    ])
    const spring = slotsBetween(parseSchedule('0 * * * *', 'Europe/Berlin'), at('2026-03-28T23:30:00Z'), at('2026-03-29T03:00:00Z'))
    expect(spring.map((date) => local(date, 'Europe/Berlin'))).toEqual([
      '2026-03-29 01:00',
      '2026-03-29 03:00',
      '2026-03-29 04:00',
      '2026-03-29 05:00',
    ])
  })
})

describe('dueSlot: a missed slot runs once, late', () => {
  const daily = parseSchedule('0 6 * * *', 'Europe/Berlin')

  it('is null before the next slot and the slot itself once it has come', () => {
    const ranAt = at('2026-05-01T04:00:00Z')
    expect(dueSlot(daily, ranAt, at('2026-05-02T03:59:59Z'))).toBeNull()
    expect(dueSlot(daily, ranAt, at('2026-05-02T04:00:00Z'))).toEqual({ slot: at('2026-05-02T04:00:00Z'), missed: 0 })
  })

  it('after a week down, runs only the latest slot and counts the others', () => {
    const due = dueSlot(daily, at('2026-05-01T04:00:00Z'), at('2026-05-08T10:00:00Z'))
    expect(due).toEqual({ slot: at('2026-05-08T04:00:00Z'), missed: 6 })
    // Passing the slot back as `after` makes it run once: nothing is due until the next one.
    expect(dueSlot(daily, due!.slot, at('2026-05-08T23:00:00Z'))).toBeNull()
  })

  it('finds the latest slot after a long gap on a dense schedule, counting at most MAX_MISSED_COUNT', () => {
    const minutely = parseSchedule('* * * * *')
    const due = dueSlot(minutely, at('2026-01-01T00:00:00Z'), at('2026-02-01T12:34:56Z'))
    expect(due).toEqual({ slot: at('2026-02-01T12:34:00Z'), missed: MAX_MISSED_COUNT })
  })

  it('agrees with walking slot by slot, for any schedule and instants (property)', () => {
    const crons = ['*/7 * * * *', '0 */5 * * *', '30 2 * * *', '15 1 * * sun', '0 0 1,15 * mon', '*/45 1-3 * * *']
    const zones = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe']
    const start = at('2026-01-01T00:00:00Z').getTime()
    fc.assert(
      fc.property(
        fc.constantFrom(...crons),
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 360 * 86_400_000 }),
        fc.integer({ min: 0, max: 20 * 86_400_000 }),
        (cron, zone, offset, gap) => {
          const schedule = parseSchedule(cron, zone)
          const after = new Date(start + offset)
          const now = new Date(start + offset + gap)
          const walked = slotsBetween(schedule, after, now, 100_000)
          const due = dueSlot(schedule, after, now)
          if (walked.length === 0) return due === null
          return due?.slot.getTime() === walked.at(-1)!.getTime() && due.missed === Math.min(walked.length - 1, MAX_MISSED_COUNT)
        },
      ),
      { numRuns: 60, seed: 20 },
    )
  })
})
