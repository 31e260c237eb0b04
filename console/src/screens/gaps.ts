import { html, nothing, type PropertyValues } from 'lit'
import type { AgentJob } from '../../../shared/agent.ts'
import type { ProjectStatus } from '../../../shared/console.ts'
import type { GapFixBody as FixGapBody, Gap, GapStatus } from '../../../shared/analytics.ts'
import { analyticsBase, gapsOf } from '../analytics.ts'
import { ApiError, api } from '../api.ts'
import { ago, count, dateTime, pathOf, readerText } from '../format.ts'
import { rangeQuery } from '../range.ts'
import { hrefOf, navigate } from '../router.ts'
import { Screen } from '../screen.ts'
import { chip, emptyState, errorState, header, loadingState, rangePicker, STATUS_LABELS } from '../ui.ts'

const FILTERS: Array<[string, string]> = [
  ['open', 'Open'],
  ['in_progress', 'In progress'],
  ['pr_open', 'PR open'],
  ['merged', 'Merged'],
  ['fixed', 'Fixed'],
  ['dismissed', 'Dismissed'],
  ['', 'All'],
]
const STEPS: GapStatus[] = ['open', 'in_progress', 'pr_open', 'merged', 'fixed']

/** The prompt the fix form starts with: the readers' own words, and where they were. */
export function suggestedPrompt(gap: Gap): string {
  const questions = gap.questions.slice(0, 3).map((question) => `"${question.query}"`)
  const more = gap.questions.length > 3 ? ` and ${gap.questions.length - 3} more like them` : ''
  return `Readers asked ${questions.join(', ')}${more}, and the docs did not answer. Add what they need, in their words, to the page that fits best.`
}

const filterLabel = (status: string) => FILTERS.find(([value]) => value === status)?.[1] ?? status

interface GapsData {
  gaps: Gap[]
  project: ProjectStatus | null
  /**
   * The gap the URL names when the list does not hold it (it has another status, or no question in the range),
   * read on its own; `gap` is null when the project has no such gap.
   */
  named: { id: string; gap: Gap | null } | null
}

/**
 * Content gaps, biggest first: what readers asked that the docs did not answer. A gap shows the questions, where
 * readers were and the sections that came nearest; "Fix with agent" turns it into a job, and its status follows the
 * job to a pull request, the merge, and the re-asked questions that verify the fix. A URL naming a gap always shows
 * that gap, whatever the list's filter, or says there is none: never another gap's buttons under its id.
 */
export class GapsScreen extends Screen<GapsData> {
  static override properties = {
    ...Screen.properties,
    fixing: { state: true },
    notice: { state: true },
    busy: { state: true },
  }
  declare fixing: Gap | null
  declare notice: { tone: 'success' | 'danger'; text: string; href?: string; undo?: () => void } | null
  declare busy: boolean
  private draft: FixGapBody = {}

  constructor() {
    super()
    this.fixing = null
    this.notice = null
    this.busy = false
  }

  private loadedStatus: string | null = null

  protected override willUpdate(changed: PropertyValues) {
    super.willUpdate(changed)
    if (changed.has('project') || changed.has('range')) return
    // Picking a gap of the list changes the URL too; a new status filter, or a gap the list does not hold, means new data.
    const newFilter = changed.has('search') && this.loadedStatus !== null && this.loadedStatus !== this.status
    const id = this.itemId
    const notLoaded = changed.has('itemId') && id && this.data && !this.data.gaps.some((gap) => gap.id === id) && this.data.named?.id !== id
    if (newFilter || notLoaded) void this.reload()
  }

  protected override updated(changed: PropertyValues) {
    super.updated(changed)
    // A link to a gap with no filter (the Overview's, or one kept from before the gap moved on): the filter follows it.
    const gap = this.data?.named?.gap
    if (changed.has('data') && gap && gap.id === this.itemId && !this.search.has('status') && gap.status !== this.status) {
      navigate(this.href(gap.id, gap.status), { replace: true })
    }
  }

  private get status(): string {
    return this.search?.get('status') ?? 'open'
  }

  protected async fetchData(signal: AbortSignal): Promise<GapsData> {
    this.loadedStatus = this.status
    const [gaps, project] = await Promise.all([
      gapsOf(this.project.id, this.range, this.status || null, signal),
      api<ProjectStatus>(`/v2/projects/${encodeURIComponent(this.project.id)}`, { signal }).catch(() => null),
    ])
    return { gaps: gaps.sort((a, b) => b.count - a.count), project, named: await this.namedGap(gaps, signal) }
  }

  /** The gap the URL names, read on its own when the list does not hold it. */
  private async namedGap(gaps: Gap[], signal: AbortSignal): Promise<GapsData['named']> {
    const id = this.itemId
    if (!id || gaps.some((gap) => gap.id === id)) return null
    try {
      const gap = await api<Gap>(`${analyticsBase(this.project.id)}/gaps/${encodeURIComponent(id)}?${rangeQuery(this.range)}`, { signal })
      return { id, gap }
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { id, gap: null }
      throw error
    }
  }

  private href(id?: string | null, status = this.status) {
    const search = new URLSearchParams(this.search)
    search.set('status', status)
    return hrefOf(this.project.id, 'gaps', id, search)
  }

  override render() {
    return html`${header('Gaps', 'Questions the docs could not answer, grouped by topic, biggest first. Fix one with the agent and Docent checks the fix.', rangePicker(this.range))}
      <div class="range" role="group" aria-label="Gap status" style="margin-bottom:16px">
        ${FILTERS.map(
          ([status, label]) =>
            html`<button type="button" class="seg" aria-pressed=${this.status === status ? 'true' : 'false'} @click=${() => navigate(this.href(null, status), { replace: true })}>${label}</button>`,
        )}
      </div>
      ${
        this.notice
          ? html`<div class="callout ${this.notice.tone}" role="status">${this.notice.text}
              ${this.notice.href ? html`<a href=${this.notice.href}>Follow the job</a>` : nothing}
              ${this.notice.undo ? html`<button type="button" class="link" ?disabled=${this.busy} @click=${this.notice.undo}>Undo</button>` : nothing}</div>`
          : nothing
      }
      ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}
      ${this.fixing ? this.fixDialog(this.fixing) : nothing}`
  }

  private body({ gaps, project, named }: GapsData) {
    const empty = () =>
      emptyState(
        this.status === 'open' ? 'No open gaps' : 'No gaps here',
        'A gap appears when readers ask something the docs do not answer: unanswered questions, answers rated down, searches with no result.',
      )
    const id = this.itemId
    if (!id && gaps.length === 0) return empty()
    // Undefined while the gap the URL names is being read; null when there is no such gap.
    const selected = id ? (gaps.find((gap) => gap.id === id) ?? (named?.id === id ? named.gap : undefined)) : gaps[0]!
    return html`<div class="master-detail ${id ? 'has-selection' : ''}">
      <section class="card" aria-label="Gaps">
        ${
          gaps.length === 0
            ? empty()
            : html`<ul class="pick-list">
              ${gaps.map(
                (gap) =>
                  html`<li>
                    <a href=${this.href(gap.id)} aria-current=${gap.id === selected?.id ? 'true' : 'false'}>
                      <span class="pick-title">${readerText(gap.title)}</span>
                      <span class="pick-meta">${chip(gap.status)} ${askedSinceDismissed(gap).length ? chip('open', 'Asked again') : nothing}
                        <span>${count(gap.count)} question${gap.count === 1 ? '' : 's'}</span>
                        <time datetime=${gap.lastSeenAt} title=${dateTime(gap.lastSeenAt)}>last ${ago(gap.lastSeenAt)}</time></span>
                    </a>
                  </li>`,
              )}
            </ul>`
        }
      </section>
      <section class="card" aria-labelledby="gap-title">
        ${
          selected === undefined
            ? loadingState()
            : selected === null
              ? html`<h2 id="gap-title">No such gap</h2>
                  <p class="muted">${this.project.name} has no gap <code>${id}</code>.</p>`
              : html`${gaps.includes(selected) ? nothing : this.notListed(selected)}${this.detail(selected, project)}`
        }
      </section>
    </div>`
  }

  /** Why the gap shown is not in the list beside it. */
  private notListed(gap: Gap) {
    if (this.status && gap.status !== this.status) {
      return html`<p class="callout info">
        The list shows ${filterLabel(this.status)} gaps; this one is ${filterLabel(gap.status)}.
        <a href=${this.href(gap.id, gap.status)}>Show ${filterLabel(gap.status)} gaps</a>
      </p>`
    }
    return html`<p class="callout info">None of its questions was asked in this date range, so the list does not show it.</p>`
  }

  private detail(gap: Gap, project: ProjectStatus | null) {
    const reached = gap.status === 'dismissed' ? -1 : STEPS.indexOf(gap.status)
    const canMerge = !this.readOnly && gap.status === 'pr_open' && gap.jobId && project?.agent?.host === 'local'
    return html`<div class="spread">
        <h2 id="gap-title">${readerText(gap.title)}</h2>
        ${chip(gap.status)}
      </div>
      <ol class="steps" aria-label="Progress">
        ${STEPS.map(
          (step, i) =>
            html`<li class=${i < reached ? 'done' : i === reached ? 'now' : ''} aria-current=${i === reached ? 'step' : nothing}>
              ${STATUS_LABELS[step] ?? step[0]!.toUpperCase() + step.slice(1)}
            </li>`,
        )}
      </ol>
      ${gap.reason ? html`<p class="callout info">Back to open: ${gap.reason}</p>` : nothing}
      ${gap.status === 'dismissed' ? this.dismissedNote(gap) : nothing}
      <div class="row" style="margin-bottom:16px">
        ${
          !this.readOnly && (gap.status === 'open' || gap.status === 'dismissed')
            ? html`<button type="button" class="button primary" ?disabled=${!this.project.agent} @click=${() => this.openFix(gap)}>Fix with agent</button>`
            : nothing
        }
        ${gap.jobId ? html`<a class="button" href=${hrefOf(this.project.id, 'agent', gap.jobId)}>Job</a>` : nothing}
        ${gap.prLink ? html`<a class="button" href=${gap.prLink} target="_blank" rel="noreferrer">Review the change</a>` : nothing}
        ${canMerge ? html`<button type="button" class="button" ?disabled=${this.busy} @click=${() => this.merge(gap)}>Merge</button>` : nothing}
        ${
          !this.readOnly && gap.status === 'open'
            ? html`<button type="button" class="button ghost" ?disabled=${this.busy} @click=${() => this.dismiss(gap)}>Dismiss</button>`
            : nothing
        }
      </div>
      <h3>What readers asked</h3>
      <div class="table-wrap" tabindex="0">
        <table>
          <thead><tr><th scope="col">Question</th><th scope="col" class="num">Times</th><th scope="col">Last asked</th></tr></thead>
          <tbody>
            ${gap.questions.map(
              (question) =>
                html`<tr><td>${readerText(question.query)}</td><td class="num">${count(question.count)}</td><td><time datetime=${question.lastAskedAt}>${ago(question.lastAskedAt)}</time></td></tr>`,
            )}
          </tbody>
        </table>
      </div>
      <div class="grid two" style="margin-top:16px">
        <div>
          <h3>Where they were</h3>
          ${gap.pages.length ? html`<ul class="sources">${gap.pages.map((page) => html`<li>${pathOf(page)}</li>`)}</ul>` : html`<p class="muted">Not known (API or MCP questions).</p>`}
        </div>
        <div>
          <h3>Closest sections</h3>
          ${
            gap.closest.length
              ? html`<ul class="sources">${gap.closest.map((section) => html`<li><a href=${section.url} target="_blank" rel="noreferrer">${section.title}</a></li>`)}</ul>`
              : html`<p class="muted">Nothing in the docs came close.</p>`
          }
        </div>
      </div>
      <p class="muted">First asked ${dateTime(gap.firstSeenAt)} · last ${dateTime(gap.lastSeenAt)}</p>`
  }

  /**
   * Whether the agent is the built-in offline editor, which writes the facts a writer gives and carries out plain
   * instructions ("Append a section…"), but cannot draft from the docs: the form asks for the facts then, and prefills
   * no instruction it would not understand.
   */
  private get offlineEditor(): boolean {
    return this.data?.project?.model.provider === 'offline'
  }

  private openFix(gap: Gap) {
    const prompt = this.offlineEditor ? '' : suggestedPrompt(gap)
    this.draft = { prompt, text: '', page: gap.closest[0] ? pathOf(gap.closest[0].url) : '' }
    this.fixing = gap
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog.fix')?.showModal())
  }

  private closeFix() {
    this.querySelector<HTMLDialogElement>('dialog.fix')?.close()
    this.fixing = null
  }

  private fixDialog(gap: Gap) {
    const offline = this.offlineEditor
    const field = (name: keyof FixGapBody) => (e: Event) => {
      this.draft = { ...this.draft, [name]: (e.target as HTMLInputElement).value }
    }
    return html`<dialog class="modal fix" aria-labelledby="fix-title" @close=${() => (this.fixing = null)}>
      <form @submit=${(e: Event) => this.submitFix(e, gap)}>
        <h2 id="fix-title">Fix with agent</h2>
        ${
          offline
            ? html`<p class="muted">The built-in editor (no language model is configured) adds your facts to the page as a section headed by the readers' question, with their other wordings, so search finds it.</p>
              <label class="field"><span class="label">The facts readers need</span>
                <textarea name="text" rows="5" required placeholder="Write the answer as you would tell a colleague." .value=${this.draft.text ?? ''} @input=${field('text')}></textarea></label>`
            : html`<p class="muted">The agent gets the readers' questions, where they were and the closest sections. Say what it should write; add the facts if the docs do not have them yet.</p>
              <label class="field"><span class="label">Instruction</span>
                <textarea name="prompt" rows="4" .value=${this.draft.prompt ?? ''} @input=${field('prompt')}></textarea></label>
              <label class="field"><span class="label">The facts readers need (optional)</span>
                <textarea name="text" rows="5" placeholder="Write the answer as you would tell a colleague; the agent puts it in the docs in the readers' words." .value=${this.draft.text ?? ''} @input=${field('text')}></textarea></label>`
        }
        <label class="field"><span class="label">Page to change (optional)</span>
          <input name="page" list="gap-pages" placeholder="/guides/…" .value=${this.draft.page ?? ''} @input=${field('page')} />
          <datalist id="gap-pages">${[...gap.closest.map((s) => pathOf(s.url)), ...gap.pages.map(pathOf)].map((path) => html`<option value=${path}></option>`)}</datalist>
        </label>
        <div class="dialog-actions">
          <button type="button" class="button" @click=${() => this.closeFix()}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy}>${this.busy ? 'Starting…' : 'Start the job'}</button>
        </div>
      </form>
    </dialog>`
  }

  private async submitFix(event: Event, gap: Gap) {
    event.preventDefault()
    this.busy = true
    const body: FixGapBody = {}
    for (const key of ['prompt', 'text', 'page'] as const) {
      const value = this.draft[key]?.trim()
      if (value) body[key] = value
    }
    try {
      const job = await api<AgentJob>(`${analyticsBase(this.project.id)}/gaps/${encodeURIComponent(gap.id)}/fix`, { method: 'POST', body })
      this.closeFix()
      this.draft = {}
      this.notice = { tone: 'success', text: 'The agent is on it.', href: hrefOf(this.project.id, 'agent', job.id) }
      await this.reload()
    } catch (error) {
      this.notice = { tone: 'danger', text: `The job did not start: ${(error as Error).message}` }
      this.closeFix()
    } finally {
      this.busy = false
    }
  }

  private async act(gap: Gap, what: string, call: () => Promise<unknown>) {
    this.busy = true
    try {
      await call()
      this.notice = { tone: 'success', text: what }
      await this.reload()
    } catch (error) {
      this.notice = { tone: 'danger', text: error instanceof ApiError ? error.message : String(error) }
    } finally {
      this.busy = false
    }
    void gap
  }

  private async dismiss(gap: Gap) {
    await this.act(gap, 'Dismissed.', () =>
      api(`${analyticsBase(this.project.id)}/gaps/${encodeURIComponent(gap.id)}/dismiss`, { method: 'POST' }),
    )
    if (this.notice?.tone === 'success') this.notice = { ...this.notice, undo: () => void this.reopen(gap, 'Open again.') }
  }

  private reopen(gap: Gap, what = 'Reopened.') {
    return this.act(gap, what, () => api(`${analyticsBase(this.project.id)}/gaps/${encodeURIComponent(gap.id)}/reopen`, { method: 'POST' }))
  }

  /** A dismissed gap still gathers the questions that match it: the team sees whether readers kept asking. */
  private dismissedNote(gap: Gap) {
    const since = askedSinceDismissed(gap)
    return html`<p class="callout info">
      Dismissed${gap.dismissedAt ? html` <time datetime=${gap.dismissedAt} title=${dateTime(gap.dismissedAt)}>${ago(gap.dismissedAt)}</time>` : nothing}.
      ${
        since.length
          ? `Readers asked ${since.length === 1 ? 'one of its questions' : `${count(since.length)} of its questions`} again since.`
          : 'No reader has asked again since.'
      }
      ${this.readOnly ? nothing : html`<button type="button" class="link" ?disabled=${this.busy} @click=${() => this.reopen(gap)}>Reopen</button>`}
    </p>`
  }

  private merge(gap: Gap) {
    return this.act(gap, 'Merged. Docent re-asks the readers’ questions once the docs reload.', () =>
      api(`/v2/agent/${encodeURIComponent(this.project.id)}/job/${encodeURIComponent(gap.jobId!)}/merge`, { method: 'POST' }),
    )
  }
}

/** The questions of a dismissed gap asked after it was dismissed. */
function askedSinceDismissed(gap: Gap) {
  const dismissedAt = gap.status === 'dismissed' ? gap.dismissedAt : null
  return dismissedAt ? gap.questions.filter((question) => question.lastAskedAt > dismissedAt) : []
}

customElements.define('screen-gaps', GapsScreen)
