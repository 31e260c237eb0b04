import { html, nothing } from 'lit'
import type { Automation, AutomationTriggerInput } from '../../../shared/automations.ts'
import { count, dateTime, dateTimeIn } from '../format.ts'

// The automations screen's forms: the settings every automation has (trigger, mode) as fields and as the API's body,
// a new custom automation's draft, and the texts the screen shows of a schedule.

/** The trigger in a few words: `Mondays…`-style cron text is left to the cron itself, which writers of it read. */
export function triggerText(trigger: Automation['trigger']): string {
  switch (trigger.kind) {
    case 'schedule':
      return `Schedule ${trigger.cron} (${trigger.timeZone ?? 'UTC'})`
    case 'content':
      return 'When the docs change'
    case 'code':
      return trigger.repositories.length ? `When code merges in ${trigger.repositories.join(', ')}` : 'When code merges'
  }
}

export interface Draft {
  kind: 'schedule' | 'content' | 'code'
  cron: string
  timeZone: string
  repositories: string
  mode: 'pull_request' | 'direct'
  instructions: string
  languages: string
}

/** A new custom automation: what the agent is asked, besides the settings every automation has. */
export interface NewDraft extends Draft {
  name: string
  prompt: string
  enabled: boolean
}

export const emptyNewDraft = (): NewDraft => ({
  name: '',
  prompt: '',
  enabled: true,
  kind: 'schedule',
  cron: '0 9 * * mon',
  timeZone: browserTimeZone(),
  repositories: '',
  mode: 'pull_request',
  instructions: '',
  languages: '',
})

/** Trigger and mode: the fields a new automation and the settings of one share. */
export function triggerAndModeFields(draft: Draft, set: (name: keyof Draft) => (event: Event) => void) {
  return html`<label class="field"><span class="label">Trigger</span>
      <select name="trigger" @change=${set('kind')}>
        <option value="schedule" ?selected=${draft.kind === 'schedule'}>On a schedule</option>
        <option value="content" ?selected=${draft.kind === 'content'}>When the docs change</option>
        <option value="code" ?selected=${draft.kind === 'code'}>When code merges</option>
      </select></label>
    ${
      draft.kind === 'schedule'
        ? html`<label class="field"><span class="label">Cron (minute hour day month weekday)</span>
              <input name="cron" required .value=${draft.cron} placeholder="0 9 * * mon" @input=${set('cron')} /></label>
            <label class="field"><span class="label">Time zone</span>
              <input name="timeZone" .value=${draft.timeZone} placeholder="Europe/Paris" @input=${set('timeZone')} /></label>`
        : nothing
    }
    ${
      draft.kind === 'code'
        ? html`<label class="field"><span class="label">Code repositories (comma-separated; none: all listed in the config)</span>
            <input name="repositories" .value=${draft.repositories} placeholder="acme/api" @input=${set('repositories')} /></label>`
        : nothing
    }
    <label class="field"><span class="label">Mode</span>
      <select name="mode" @change=${set('mode')}>
        <option value="pull_request" ?selected=${draft.mode === 'pull_request'}>Pull request: a person reviews and merges</option>
        <option value="direct" ?selected=${draft.mode === 'direct'}>Direct: merged into the default branch</option>
      </select></label>`
}

export function triggerOf(draft: Draft): AutomationTriggerInput {
  if (draft.kind === 'schedule') {
    return { kind: 'schedule', cron: draft.cron, ...(draft.timeZone.trim() ? { timeZone: draft.timeZone.trim() } : {}) }
  }
  return draft.kind === 'code' ? { kind: 'code', repositories: splitList(draft.repositories) } : { kind: 'content' }
}

/**
 * The next slot in the schedule's own zone, which the cron beside it is written in, and in the reader's when theirs
 * differs: "Dec 1, 2026, 3:00 AM (America/New_York) · Dec 1, 2026, 9:00 AM your time".
 */
export function nextRunText(nextRunAt: string, trigger: Automation['trigger']) {
  const zone = trigger.kind === 'schedule' ? (trigger.timeZone ?? 'UTC') : 'UTC'
  const there = `${dateTimeIn(nextRunAt, zone)} (${zone})`
  const here = dateTime(nextRunAt)
  return here === dateTimeIn(nextRunAt, zone) ? there : `${there} · ${here} your time`
}

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone
  } catch {
    return 'UTC'
  }
}

export function draftOf(automation: Automation): Draft {
  const { trigger } = automation
  return {
    kind: trigger.kind,
    cron: trigger.kind === 'schedule' ? trigger.cron : '0 9 * * mon',
    timeZone: trigger.kind === 'schedule' ? (trigger.timeZone ?? '') : '',
    repositories: trigger.kind === 'code' ? trigger.repositories.join(', ') : '',
    mode: automation.mode,
    instructions: automation.instructions ?? '',
    languages: (automation.languages ?? []).join(', '),
  }
}

export const splitList = (text: string) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)

/**
 * How much of a text's room is used. No `maxlength`: a browser cuts a longer paste silently, and the form said "saved"
 * over what it had dropped; over the limit, this says so and the form waits.
 */
export function lengthCount(id: string, length: number, max: number) {
  const over = length > max
  return html`<p id=${id} class=${over ? 'field-error' : 'help'} role=${over ? 'alert' : nothing}>
    ${count(length)} of ${count(max)} characters${over ? `: ${count(length - max)} too many` : ''}
  </p>`
}
