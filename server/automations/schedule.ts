import { Cron } from 'croner'
import { DocentError } from '../../shared/errors.ts'

/**
 * A parsed 5-field cron (`m h dom mon dow`) in an IANA time zone. Fields take `*`, ranges (`1-5`), steps (`*\/15`,
 * `9-17/2`), lists (`mon,wed-fri`) and names (`jan`, `mon`); croner's extensions (`L`, `W`, `#`, `+` for AND, and
 * the `@daily`-style nicknames) are accepted too. Day of month and day of week combine with OR when both are
 * restricted, as in Vixie cron and POSIX (`0 9 1 * mon`: the 1st and every Monday).
 *
 * Daylight saving time follows Vixie cron (croner documents it): a fixed time that does not exist (spring forward)
 * runs at the first valid time after the gap, once; a fixed time that occurs twice (fall back) runs once, at the
 * first occurrence; an interval job (`*\/30 * * * *`) skips times that do not exist and runs on both passes of a
 * repeated hour.
 */
export interface CronSchedule {
  /** The expression as given, trimmed. */
  readonly cron: string
  /** Canonical IANA name (`europe/paris` → `Europe/Paris`). */
  readonly timeZone: string
  /** The first slot strictly after `after`, or null when the expression matches no later date. */
  next(after: Date): Date | null
}

/** The longest cron expression accepted: a real one fits on a line; this keeps pathological input out of the parser. */
const MAX_CRON_LENGTH = 200

/**
 * Parses and validates a cron expression and time zone (`UTC` when none is given). Bad input throws
 * `DocentError('invalid_request')` naming the field: `trigger.cron: invalid value for minute: 61`,
 * `trigger.timeZone: unknown time zone "Mars/Olympus" ...`, `trigger.cron: never matches a date (...)`.
 */
export function parseSchedule(cron: string, timeZone = 'UTC'): CronSchedule {
  const zone = canonicalTimeZone(timeZone)
  const expression = typeof cron === 'string' ? cron.trim().replace(/\s+/g, ' ') : ''
  if (!expression) throw invalid('trigger.cron', 'must not be empty (expected "m h dom mon dow", e.g. "0 9 * * mon")')
  if (expression.length > MAX_CRON_LENGTH) throw invalid('trigger.cron', `must be at most ${MAX_CRON_LENGTH} characters`)
  let pattern: Cron
  try {
    pattern = new Cron(expression, { mode: '5-part', timezone: zone })
  } catch (error) {
    throw invalid('trigger.cron', describeCronError(expression, error))
  }
  // Croner looks a few years ahead; 31 February or 30 February is never there. 2000-01-01 keeps this deterministic.
  if (pattern.nextRun(new Date(Date.UTC(2000, 0, 1))) === null) {
    throw invalid('trigger.cron', `"${expression}" never matches a date (a day that no month has, such as 30 February?)`)
  }
  return {
    cron: expression,
    timeZone: zone,
    next: (after) => pattern.nextRun(checkedDate(after)),
  }
}

/** The same checks as `parseSchedule`, as a message for a zod refinement; null when the trigger is valid. */
export function scheduleProblem(cron: string, timeZone?: string): string | null {
  try {
    parseSchedule(cron, timeZone)
    return null
  } catch (error) {
    if (error instanceof DocentError) return error.message
    throw error
  }
}

/** Slots in `(after, until]`, oldest first, at most `limit` of them. */
export function slotsBetween(schedule: CronSchedule, after: Date, until: Date, limit = 1000): Date[] {
  const slots: Date[] = []
  let at = schedule.next(after)
  while (at && at.getTime() <= until.getTime() && slots.length < limit) {
    slots.push(at)
    at = schedule.next(at)
  }
  return slots
}

/** The most slots `dueSlot` counts as missed; beyond that it says `missed: MAX_MISSED_COUNT`. */
export const MAX_MISSED_COUNT = 100

export interface DueSlot {
  /** The latest slot in `(after, now]`: the one to run. */
  slot: Date
  /** Earlier slots in `(after, slot)` that will not run (the server was down or busy), capped at MAX_MISSED_COUNT. */
  missed: number
}

/**
 * What a scheduler runs at `now`, given the last slot it ran (or the moment the automation was turned on): the
 * latest slot since then, once, however many were missed — a server back after a week runs a daily automation
 * once, late, not seven times. Null when no slot is due. Claiming `slot` (its ISO string is a stable key) makes it
 * run once across instances; the scheduler then passes it back as `after`.
 */
export function dueSlot(schedule: CronSchedule, after: Date, now: Date): DueSlot | null {
  const first = schedule.next(after)
  if (!first || first.getTime() > now.getTime()) return null
  const slot = latestSlot(schedule, first, now)
  return { slot, missed: slotsBetween(schedule, after, new Date(slot.getTime() - 1), MAX_MISSED_COUNT).length }
}

/** The latest slot in `[from, until]`, `from` being a slot: few steps after a short wait, few after a long one too. */
function latestSlot(schedule: CronSchedule, from: Date, until: Date): Date {
  let latest = from
  // Walk forward while the gap is short (the usual case: the scheduler woke at the slot)...
  for (let steps = 0; steps < 64; steps++) {
    const next = schedule.next(latest)
    if (!next || next.getTime() > until.getTime()) return latest
    latest = next
  }
  // ...and after a long one, jump back from `until` by halving the distance: `next` only moves forward.
  let low = latest.getTime()
  let high = until.getTime()
  while (high - low > 60_000) {
    const middle = low + Math.floor((high - low) / 2)
    const next = schedule.next(new Date(middle))
    if (next && next.getTime() <= until.getTime()) low = next.getTime()
    else high = middle
  }
  latest = new Date(low)
  for (let next = schedule.next(latest); next && next.getTime() <= until.getTime(); next = schedule.next(latest)) latest = next
  return latest
}

function canonicalTimeZone(timeZone: unknown): string {
  if (typeof timeZone !== 'string' || !timeZone.trim()) {
    throw invalid('trigger.timeZone', 'must be an IANA time zone name such as Europe/Paris')
  }
  const asked = timeZone.trim()
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: asked }).resolvedOptions().timeZone
    // Only the casing is put right. ICU resolves some current names to the older link they replaced (Asia/Kolkata to
    // Asia/Calcutta, Europe/Kyiv to Europe/Kiev): the team's own spelling, which Intl accepted, is kept.
    return resolved.toLowerCase() === asked.toLowerCase() ? resolved : asked
  } catch {
    throw invalid('trigger.timeZone', `unknown time zone "${timeZone}" (expected an IANA name such as Europe/Paris or America/New_York)`)
  }
}

/** Where each of croner's field names sits in a 5-field expression, and what a person calls it. */
const CRON_FIELDS: Record<string, { position: number; name: string }> = {
  minute: { position: 0, name: 'minute' },
  hour: { position: 1, name: 'hour' },
  day: { position: 2, name: 'day of month' },
  nearestWeekdays: { position: 2, name: 'day of month' },
  month: { position: 3, name: 'month' },
  dayOfWeek: { position: 4, name: 'day of week' },
}

/** Croner's messages, without its class prefix and with the field named the way a person writes it. */
function describeCronError(expression: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/exactly (five|5)|requires exactly 5 parts|space separated parts/i.test(message)) {
    const count = expression.split(' ').length
    return `expected 5 fields "m h dom mon dow" (e.g. "0 9 * * mon"), got ${count}: "${expression}"`
  }
  // Croner reports the value after shifting days and months to count from zero (32 → "day: 31", 0 → "day: -1"),
  // and a range by the first value out of bounds: the field as written is what the person can find and fix.
  const outOfRange = /Invalid value for (\w+): /.exec(message)
  const field = outOfRange && CRON_FIELDS[outOfRange[1]!]
  const written = field && expression.split(' ')[field.position]
  if (field && written) return `invalid value for ${field.name}: ${written} in "${expression}"`
  return message.replace(/^Cron(Pattern|Date)?:\s*/i, '').replace(/^\w/, (c) => c.toLowerCase()) + ` in "${expression}"`
}

function checkedDate(date: Date): Date {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw new TypeError('schedule: expected a valid Date')
  return date
}

const invalid = (field: string, message: string) => new DocentError('invalid_request', `${field}: ${message}`, { field })
