import type { RunReason } from '../../shared/automations.ts'
import type { AutomationRecord, AutomationRunRecord } from '../store/types.ts'
import type { AutomationDefinition } from './catalog.ts'

// The words an automation run leaves behind: its pull request's body, the section a later run appends, why it ran.

/** The pull request an automation opens: its summary and notes, then who opened it and why. */
export function pullBody(
  automation: AutomationRecord,
  definition: AutomationDefinition | undefined,
  summary: string,
  notes: string[],
  reason: string,
  jobId: string,
): string {
  return [
    summary.trim(),
    ...notes.map((note) => `\n${note}`),
    '',
    '---',
    `Opened by the Docent automation **${automation.name}** (${reason}).${
      definition?.class === 'maintenance' ? ' Its later fixes are added to this pull request until it is merged or closed.' : ''
    }`,
    ...(automation.instructions ? ['', `Instructions: ${automation.instructions}`] : []),
    '',
    `Docent job ${jobId}`,
  ].join('\n')
}

/** What a later run of a maintenance automation appends to its open pull request. */
export function runSection(record: AutomationRunRecord, reason: string, at: Date, summary: string, notes: string[]): string {
  return [
    '---',
    `**Run ${record.id}** (${reason}, ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC):`,
    '',
    summary.trim(),
    ...notes.map((note) => `\n${note}`),
  ].join('\n')
}

export function reasonText(reason: RunReason, context: Record<string, unknown>): string {
  switch (reason) {
    case 'schedule':
      return `on its schedule, ${String(context.slot ?? '')}`
    case 'content':
      return `the docs moved to ${String(context.revision ?? '').slice(0, 12)}`
    case 'code':
      return `${String(context.repository ?? 'a code repository')}#${String(context.number ?? '')} merged`
    case 'manual':
      return 'triggered by hand'
  }
}

/** `YYYY-MM-DD` of the instant in the time zone (UTC by default). */
export function dayIn(at: Date, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at)
}

export const firstLine = (text: string) => (text.trim().split('\n')[0] ?? '').trim()
export const firstParagraph = (text: string) => (text.trim().split(/\n\s*\n/)[0] ?? '').trim().slice(0, 2_000)
