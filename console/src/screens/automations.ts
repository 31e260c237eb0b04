import { html, nothing, type PropertyValues } from 'lit'
import type {
  Automation,
  AutomationList,
  AutomationRun,
  AutomationRunList,
  CreateAutomationInput,
  UpdateAutomationInput,
  WorkflowTriggered,
} from '../../../shared/automations.ts'
import { MAX_AUTOMATION_PROMPT_CHARS, MAX_INSTRUCTIONS_CHARS } from '../../../shared/console-names.ts'
import { api } from '../api.ts'
import { ago, dateTime } from '../format.ts'
import { hrefOf, navigate } from '../router.ts'
import { Screen } from '../screen.ts'
import { chip, emptyState, errorState, header, loadingState } from '../ui.ts'
import {
  type Draft,
  draftOf,
  emptyNewDraft,
  lengthCount,
  type NewDraft,
  nextRunText,
  splitList,
  triggerAndModeFields,
  triggerOf,
  triggerText,
} from './automation-form.ts'

const REASONS: Record<AutomationRun['reason'], string> = {
  schedule: 'Schedule',
  content: 'Docs changed',
  code: 'Code merged',
  manual: 'Run now',
}

/**
 * The automations: the agent on a schedule and on events. Each can be turned on or off, set (trigger, mode,
 * instructions, languages), run now when it is on a schedule, and followed through its run history to its jobs and
 * pull requests. A read key sees all of it and changes nothing.
 */
export class AutomationsScreen extends Screen<AutomationList> {
  static override properties = {
    ...Screen.properties,
    runs: { state: true },
    nextCursor: { state: true },
    draft: { state: true },
    busy: { state: true },
    notice: { state: true },
    saved: { state: true },
    creating: { state: true },
    newDraft: { state: true },
    createNotice: { state: true },
  }
  declare runs: AutomationRun[] | null
  declare nextCursor: string | null
  declare draft: Draft | null
  declare busy: boolean
  declare notice: string | null
  declare saved: string | null
  declare creating: boolean
  declare newDraft: NewDraft
  declare createNotice: string | null
  /** What to say on the screen of an automation just created, which the move to it would otherwise clear. */
  private createdNotice: { id: string; text: string } | null = null

  constructor() {
    super()
    this.runs = null
    this.nextCursor = null
    this.draft = null
    this.busy = false
    this.notice = null
    this.saved = null
    this.creating = false
    this.newDraft = emptyNewDraft()
    this.createNotice = null
  }

  private get base() {
    return `/v2/agent/${encodeURIComponent(this.project.id)}/automations`
  }

  private get selected(): Automation | undefined {
    return this.data?.automations.find((automation) => automation.id === this.itemId)
  }

  protected async fetchData(signal: AbortSignal) {
    return api<AutomationList>(this.base, { signal })
  }

  protected override willUpdate(changed: PropertyValues) {
    super.willUpdate(changed)
    if (changed.has('itemId') || changed.has('project')) {
      this.draft = null
      this.notice = null
      this.saved = this.createdNotice?.id === this.itemId ? this.createdNotice.text : null
      this.createdNotice = null
      void this.loadRuns()
    }
    if (changed.has('data') && this.selected && !this.draft) this.draft = draftOf(this.selected)
  }

  private async loadRuns(cursor?: string) {
    const id = this.itemId
    if (!id) return void (this.runs = null)
    if (!cursor) this.runs = null
    try {
      const page = await api<AutomationRunList>(
        `${this.base}/${encodeURIComponent(id)}/runs?limit=20${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      )
      if (id !== this.itemId) return
      this.runs = [...(cursor ? (this.runs ?? []) : []), ...page.runs]
      this.nextCursor = page.nextCursor
    } catch (error) {
      this.notice = (error as Error).message
    }
  }

  override render() {
    const controls = this.readOnly
      ? nothing
      : html`<button type="button" class="button primary" @click=${() => this.openCreate()}>New automation</button>`
    return html`${header(
      'Automations',
      'The agent on a schedule and on events: maintenance a docs team never gets to. Each run is an agent job; maintenance fixes collect in one pull request.',
      controls,
    )}
      ${this.project.agent ? nothing : html`<p class="callout info">This project has no agent configured (<code>agent.repository</code> in the config), so nothing can run.</p>`}
      ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data.automations)}
      ${this.creating ? this.createDialog() : nothing}`
  }

  private body(automations: Automation[]) {
    const selected = this.selected
    return html`<div class="master-detail ${this.itemId ? 'has-selection' : ''}">
      <section class="card" aria-label="Automations">
        <ul class="pick-list">
          ${automations.map(
            (automation) => html`<li>
              <a href=${hrefOf(this.project.id, 'automations', automation.id)} aria-current=${automation.id === this.itemId ? 'true' : 'false'}>
                <span class="pick-title">${automation.name}</span>
                <span class="pick-meta">${chip(automation.enabled ? 'on' : 'off', automation.enabled ? 'On' : 'Off')}
                  <span>${triggerText(automation.trigger)}</span>
                  ${automation.mode === 'direct' ? html`<span>merges directly</span>` : nothing}
                  ${
                    automation.lastRun
                      ? html`<span>last run ${chip(automation.lastRun.status)} <time datetime=${automation.lastRun.startedAt} title=${dateTime(automation.lastRun.startedAt)}>${ago(automation.lastRun.startedAt)}</time></span>`
                      : nothing
                  }</span>
              </a>
            </li>`,
          )}
        </ul>
      </section>
      <section class="card" aria-labelledby="automation-title">${selected ? this.detail(selected) : emptyState('Pick an automation', 'Its settings, run history and Run now show here.')}</section>
    </div>`
  }

  private detail(automation: Automation) {
    const canRunNow = automation.enabled && automation.trigger.kind === 'schedule'
    return html`<div class="spread">
        <h2 id="automation-title">${automation.name}</h2>
        ${
          this.readOnly
            ? chip(automation.enabled ? 'on' : 'off', automation.enabled ? 'On' : 'Off')
            : html`<button type="button" class="seg" role="switch" aria-checked=${automation.enabled ? 'true' : 'false'}
                ?disabled=${this.busy || (!automation.enabled && Boolean(automation.unavailable))} @click=${() => this.save({ enabled: !automation.enabled })}>
                ${automation.enabled ? 'On' : 'Off'}<span class="sr-only">: ${automation.name}</span></button>`
        }
      </div>
      <p class="muted">${automation.description ?? automation.prompt ?? ''}</p>
      ${automation.unavailable && !automation.enabled ? html`<p class="callout info">Cannot be turned on here: ${automation.unavailable}.</p>` : nothing}
      ${this.notice ? html`<p class="callout danger" role="alert">${this.notice}</p>` : nothing}
      ${this.saved ? html`<p class="callout success" role="status">${this.saved}</p>` : nothing}
      <dl class="facts" style="margin:14px 0">
        <dt>Runs</dt><dd>${triggerText(automation.trigger)}</dd>
        <dt>Next run</dt><dd>${automation.nextRunAt ? nextRunText(automation.nextRunAt, automation.trigger) : automation.enabled ? 'on its trigger' : 'off'}</dd>
        <dt>Changes</dt><dd>${automation.mode === 'direct' ? 'merged into the default branch directly' : 'proposed as a pull request'}</dd>
        ${automation.kind === 'custom' ? html`<dt>Prompt</dt><dd>${automation.prompt}</dd>` : nothing}
        ${this.readOnly && automation.instructions ? html`<dt>Instructions</dt><dd>${automation.instructions}</dd>` : nothing}
        ${this.readOnly && automation.languages?.length ? html`<dt>Languages</dt><dd>${automation.languages.join(', ')}</dd>` : nothing}
      </dl>
      ${
        this.readOnly
          ? nothing
          : html`<div class="row" style="margin-bottom:14px">
              <button type="button" class="button" ?disabled=${this.busy || !canRunNow} @click=${() => this.runNow(automation)}>Run now</button>
              ${canRunNow ? nothing : html`<span class="muted">Run now is for scheduled automations that are on.</span>`}
              ${
                automation.kind === 'custom'
                  ? html`<button type="button" class="button danger" style="margin-left:auto" ?disabled=${this.busy} @click=${() => this.deleteAutomation(automation)}>Delete<span class="sr-only"> ${automation.name}</span></button>`
                  : nothing
              }
            </div>
            ${this.settingsForm(automation)}`
      }
      <h3>Run history</h3>
      ${this.history()}`
  }

  private settingsForm(automation: Automation) {
    const draft = this.draft ?? draftOf(automation)
    const set = (name: keyof Draft) => (event: Event) => {
      this.draft = { ...draft, [name]: (event.target as HTMLInputElement).value }
      this.notice = null
    }
    return html`<details class="card" style="margin-bottom:16px" ?open=${this.saved !== null}>
      <summary><strong>Settings</strong></summary>
      <form class="stack" style="margin-top:12px;gap:8px" @submit=${(e: Event) => this.saveSettings(e, draft)}>
        ${triggerAndModeFields(draft, set)}
        <label class="field"><span class="label">Instructions (added to what it is asked)</span>
          <textarea name="instructions" rows="3" aria-describedby="instructions-length" .value=${draft.instructions} @input=${set('instructions')}></textarea></label>
        ${lengthCount('instructions-length', draft.instructions.length, MAX_INSTRUCTIONS_CHARS)}
        ${
          automation.id === 'translate'
            ? html`<label class="field"><span class="label">Target languages (comma-separated codes)</span>
                <input name="languages" .value=${draft.languages} placeholder="fr, de, pt-BR" @input=${set('languages')} /></label>`
            : nothing
        }
        <div class="row"><button type="submit" class="button primary" ?disabled=${this.busy || draft.instructions.length > MAX_INSTRUCTIONS_CHARS}>Save settings</button></div>
      </form>
    </details>`
  }

  private history() {
    const runs = this.runs
    if (!runs) return loadingState()
    if (runs.length === 0) return emptyState('No runs yet', 'Runs appear here when the trigger fires, or with Run now.')
    return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Run history"><table>
        <thead><tr><th scope="col">Started</th><th scope="col">Why</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Job</th></tr></thead>
        <tbody>
          ${runs.map(
            (run) => html`<tr>
              <td><time datetime=${run.startedAt}>${dateTime(run.startedAt)}</time></td>
              <td>${REASONS[run.reason]}</td>
              <td>${chip(run.status)}</td>
              <td>${run.prLink ? html`<a href=${run.prLink} target="_blank" rel="noreferrer">Pull request</a> ` : nothing}${run.note ? html`<span class="muted">${run.note}</span>` : run.prLink ? nothing : html`<span class="muted">–</span>`}</td>
              <td><a href=${hrefOf(this.project.id, 'agent', run.jobId)}>Follow the job<span class="sr-only"> of the run started ${dateTime(run.startedAt)}</span></a></td>
            </tr>`,
          )}
        </tbody>
      </table></div>
      ${this.nextCursor ? html`<button type="button" class="link" @click=${() => this.loadRuns(this.nextCursor!)}>Older runs</button>` : nothing}`
  }

  private async saveSettings(event: Event, draft: Draft) {
    event.preventDefault()
    await this.save(
      {
        trigger: triggerOf(draft),
        mode: draft.mode,
        instructions: draft.instructions.trim() || null,
        ...(this.selected?.id === 'translate' ? { languages: splitList(draft.languages) } : {}),
      },
      'Settings saved.',
    )
  }

  private async save(body: UpdateAutomationInput, saved: string | null = null) {
    const automation = this.selected
    if (!automation) return
    this.busy = true
    this.notice = null
    this.saved = null
    try {
      const updated = await api<Automation>(`${this.base}/${encodeURIComponent(automation.id)}`, { method: 'PUT', body })
      this.data = { automations: this.data!.automations.map((listed) => (listed.id === updated.id ? updated : listed)) }
      this.draft = draftOf(updated)
      this.saved = saved
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private openCreate() {
    this.creating = true
    this.createNotice = null
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog.create-automation')?.showModal())
  }

  private createDialog() {
    const draft = this.newDraft
    const set = (name: keyof NewDraft) => (event: Event) => {
      const target = event.target as HTMLInputElement
      this.newDraft = { ...this.newDraft, [name]: target.type === 'checkbox' ? target.checked : target.value }
      this.createNotice = null
    }
    const close = () => this.querySelector<HTMLDialogElement>('dialog.create-automation')?.close()
    return html`<dialog class="modal create-automation" aria-labelledby="create-automation-title" @close=${() => (this.creating = false)}>
      <form class="stack" style="gap:8px" @submit=${(e: Event) => this.create(e)}>
        <h2 id="create-automation-title">New automation</h2>
        <p class="muted">The agent does this on its trigger, as a job of its own, and proposes the change as a pull request unless you choose Direct.</p>
        <label class="field"><span class="label">Name</span>
          <input name="name" required maxlength="100" placeholder="Weekly API reference check" .value=${draft.name} @input=${set('name')} /></label>
        <label class="field"><span class="label">What the agent is asked to do</span>
          <textarea name="prompt" required rows="5" aria-describedby="prompt-length" placeholder="Compare the API reference with openapi.json and document what is missing." .value=${draft.prompt} @input=${set('prompt')}></textarea></label>
        ${lengthCount('prompt-length', draft.prompt.length, MAX_AUTOMATION_PROMPT_CHARS)}
        ${triggerAndModeFields(draft, set)}
        <label class="check"><input type="checkbox" name="enabled" .checked=${draft.enabled} @change=${set('enabled')} /> Turn it on now</label>
        ${this.createNotice ? html`<p class="callout danger" role="alert">${this.createNotice}</p>` : nothing}
        <div class="dialog-actions">
          <button type="button" class="button" @click=${close}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy || draft.prompt.length > MAX_AUTOMATION_PROMPT_CHARS}>Create</button>
        </div>
      </form>
    </dialog>`
  }

  private async create(event: Event) {
    event.preventDefault()
    const draft = this.newDraft
    if (!draft.name.trim() || !draft.prompt.trim()) return
    const body: CreateAutomationInput = {
      name: draft.name.trim(),
      prompt: draft.prompt.trim(),
      trigger: triggerOf(draft),
      mode: draft.mode,
      enabled: draft.enabled,
    }
    this.busy = true
    this.createNotice = null
    try {
      const created = await api<Automation>(this.base, { method: 'POST', body })
      this.data = { automations: [...(this.data?.automations ?? []), created] }
      this.newDraft = emptyNewDraft()
      this.querySelector<HTMLDialogElement>('dialog.create-automation')?.close()
      this.creating = false
      this.createdNotice = {
        id: created.id,
        text: created.enabled ? 'Automation created and on.' : 'Automation created; it is off until you turn it on.',
      }
      navigate(hrefOf(this.project.id, 'automations', created.id))
    } catch (error) {
      this.createNotice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private async deleteAutomation(automation: Automation) {
    if (!confirm(`Delete the automation "${automation.name}"? Its run history goes with it; jobs and pull requests it made stay.`)) return
    this.busy = true
    this.notice = null
    try {
      await api<unknown>(`${this.base}/${encodeURIComponent(automation.id)}`, { method: 'DELETE' })
      this.data = { automations: (this.data?.automations ?? []).filter((listed) => listed.id !== automation.id) }
      navigate(hrefOf(this.project.id, 'automations'))
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private async runNow(automation: Automation) {
    this.busy = true
    this.notice = null
    try {
      const triggered = await api<WorkflowTriggered>(
        `/workflow/${encodeURIComponent(this.project.id)}/${encodeURIComponent(automation.id)}/trigger`,
        { method: 'POST' },
      )
      this.saved = `Run queued (job ${triggered.jobId}).`
      await this.loadRuns()
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }
}

customElements.define('screen-automations', AutomationsScreen)
