import { html, nothing, type PropertyValues } from 'lit'
import type { AgentEvent, AgentJob } from '../../../shared/agent.ts'
import type { ConsoleJob, ConsoleJobList } from '../../../shared/console.ts'
import { api } from '../api.ts'
import { ago, dateTime } from '../format.ts'
import { hrefOf, navigate } from '../router.ts'
import { Screen } from '../screen.ts'
import { chip, emptyState, errorState, header, loadingState } from '../ui.ts'

const EXAMPLES = [
  'Replace "old phrase" with "new phrase" everywhere',
  'Add a page titled "Glossary" in the "Guides" group with the text "…"',
  'Append a section "Limits" to quickstart with the text "…"',
  'Fix misspellings',
]

/**
 * The agent's jobs: what was asked, where it stands, its pull request; a new job; and one job's live view (what the
 * agent reads, changes, commits and opens, as it happens), with follow-ups and archive.
 */
/** Jobs per page of the list; older ones come a page at a time (Load older jobs). */
const JOBS_PAGE = 50

export class AgentScreen extends Screen<ConsoleJobList> {
  static override properties = {
    ...Screen.properties,
    events: { state: true },
    job: { state: true },
    live: { state: true },
    creating: { state: true },
    busy: { state: true },
    notice: { state: true },
    loadingMore: { state: true },
  }
  declare events: AgentEvent[]
  declare job: AgentJob | null
  declare live: boolean
  declare creating: boolean
  declare busy: boolean
  declare notice: string | null
  declare loadingMore: boolean
  private source: EventSource | null = null
  private newPrompt = ''
  private followUp = ''

  constructor() {
    super()
    this.events = []
    this.job = null
    this.live = false
    this.creating = false
    this.busy = false
    this.notice = null
    this.loadingMore = false
  }

  private get base() {
    return `/v2/agent/${encodeURIComponent(this.project.id)}`
  }

  private jobsPage(cursor: string | null, signal?: AbortSignal) {
    const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
    return api<ConsoleJobList>(`/console/api/${encodeURIComponent(this.project.id)}/jobs?limit=${JOBS_PAGE}${after}`, { signal })
  }

  protected async fetchData(signal: AbortSignal) {
    return this.jobsPage(null, signal)
  }

  /** The next page of older jobs, below the others; focus moves to the first it brought. */
  private async loadMore() {
    const data = this.data
    if (!data?.nextCursor || this.loadingMore) return
    this.loadingMore = true
    try {
      const page = await this.jobsPage(data.nextCursor)
      if (this.data !== data) return
      this.data = { jobs: [...data.jobs, ...page.jobs], nextCursor: page.nextCursor }
      await this.updateComplete
      const first = page.jobs[0]
      if (first) this.querySelector<HTMLElement>(`.pick-list a[href="${CSS.escape(hrefOf(this.project.id, 'agent', first.id))}"]`)?.focus()
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.loadingMore = false
    }
  }

  protected override willUpdate(changed: PropertyValues) {
    super.willUpdate(changed)
    if (changed.has('itemId') || changed.has('project')) this.watch()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    this.source?.close()
    this.source = null
  }

  /** Opens the live stream of the selected job: every event as it happens, the job's changes, and the end. */
  private watch() {
    this.source?.close()
    this.source = null
    this.events = []
    this.job = null
    this.live = false
    const id = this.itemId
    if (!id) return
    const source = new EventSource(`${this.base}/job/${encodeURIComponent(id)}/events`)
    this.source = source
    source.addEventListener('open', () => (this.live = true))
    source.addEventListener('agent', (event) => {
      this.events = [...this.events, JSON.parse((event as MessageEvent).data) as AgentEvent]
    })
    source.addEventListener('job', (event) => {
      this.job = JSON.parse((event as MessageEvent).data) as AgentJob
      this.patchListed(this.job)
    })
    source.addEventListener('end', () => {
      source.close()
      this.live = false
    })
    source.addEventListener('error', async () => {
      if (source.readyState !== EventSource.CLOSED || this.source !== source) return
      this.live = false
      // Refused (an ended session, say): a plain request goes through the sign-in dialog, then the stream reopens.
      try {
        const job = await api<AgentJob>(`${this.base}/job/${encodeURIComponent(id)}`)
        this.job = job
        if (this.source === source && job.status === 'active') this.watch()
        else if (this.source === source) {
          this.events = (await api<{ events: AgentEvent[] }>(`${this.base}/job/${encodeURIComponent(id)}/events`)).events
        }
      } catch (error) {
        this.notice = (error as Error).message
      }
    })
  }

  private patchListed(job: AgentJob) {
    if (!this.data) return
    this.data = { ...this.data, jobs: this.data.jobs.map((listed) => (listed.id === job.id ? { ...listed, ...job } : listed)) }
  }

  override render() {
    const controls = this.readOnly
      ? nothing
      : html`<button type="button" class="button primary" ?disabled=${!this.project.agent} @click=${() => this.openNew()}>New job</button>`
    return html`${header('Agent', 'Jobs for the docs agent: it edits the docs in a branch and opens a pull request. Watch one work as it happens.', controls)}
      ${this.project.agent ? nothing : html`<p class="callout info">This project has no agent configured (<code>agent.repository</code> in the config).</p>`}
      ${this.notice ? html`<p class="callout danger" role="alert">${this.notice}</p>` : nothing}
      ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data.jobs)}
      ${this.creating ? this.newDialog() : nothing}`
  }

  private body(jobs: ConsoleJob[]) {
    if (jobs.length === 0) {
      return emptyState('No jobs yet', html`Start one with <strong>New job</strong>, or from a gap with <strong>Fix with agent</strong>.`)
    }
    const selected = jobs.find((job) => job.id === this.itemId)
    return html`<div class="master-detail ${this.itemId ? 'has-selection' : ''}">
      <section class="card" aria-label="Jobs">
        <ul class="pick-list">
          ${jobs.map(
            (job) => html`<li>
              <a href=${hrefOf(this.project.id, 'agent', job.id)} aria-current=${job.id === this.itemId ? 'true' : 'false'}>
                <span class="pick-title">${job.prompt ?? job.id}</span>
                <span class="pick-meta">${chip(job.status)} ${job.prLink ? html`<span>PR ready</span>` : nothing}
                  ${job.followUps ? html`<span>${job.followUps} follow-up${job.followUps === 1 ? '' : 's'}</span>` : nothing}
                  <time datetime=${job.createdAt} title=${dateTime(job.createdAt)}>${ago(job.createdAt)}</time></span>
              </a>
            </li>`,
          )}
        </ul>
        ${
          this.data?.nextCursor
            ? html`<p style="margin:12px 0 0">
                <button type="button" class="button" aria-disabled=${this.loadingMore ? 'true' : 'false'} @click=${() => this.loadMore()}>
                  ${this.loadingMore ? 'Loading…' : `Load ${JOBS_PAGE} older jobs`}
                </button>
              </p>`
            : nothing
        }
      </section>
      <section class="card" aria-labelledby="job-title">${selected ? this.detail(selected) : emptyState('Pick a job', 'Its live view, pull request and follow-ups show here.')}</section>
    </div>`
  }

  private detail(listed: ConsoleJob) {
    const job = this.job ?? listed
    return html`<div class="spread">
        <h2 id="job-title">${listed.prompt ?? job.id}</h2>
        <span class="row">${this.live ? html`<span class="live">Live</span>` : nothing} ${chip(job.status)}</span>
      </div>
      <dl class="facts" style="margin:14px 0">
        <dt>Pull request</dt><dd>${job.prLink ? html`<a href=${job.prLink} target="_blank" rel="noreferrer">${job.prLink}</a>` : job.status === 'active' ? 'when the run ends' : 'none (no file changed)'}</dd>
        <dt>Branch of</dt><dd>${job.source.repository} ${job.source.ref ? html`<code>${job.source.ref}</code>` : nothing}</dd>
        <dt>Model</dt><dd>${job.model}</dd>
        <dt>Created</dt><dd>${dateTime(job.createdAt)}</dd>
        ${job.error ? html`<dt>Error</dt><dd class="field-error" style="margin:0">${job.error}</dd>` : nothing}
      </dl>
      <h3>What the agent did</h3>
      <ol class="timeline" aria-live="polite" aria-relevant="additions" aria-label="Job events">
        ${this.events.map(
          (event) => html`<li>
            <time datetime=${event.at}>${new Date(event.at).toLocaleTimeString()}</time>
            <span class="type">${event.type}</span>
            <span class="message">${event.message}</span>
          </li>`,
        )}
      </ol>
      ${this.events.length === 0 ? html`<p class="muted" role="status">Waiting for the first event…</p>` : nothing}
      ${
        this.readOnly || job.status === 'archived'
          ? nothing
          : html`<form class="stack" style="margin-top:18px;gap:8px" @submit=${(e: Event) => this.sendFollowUp(e, job)}>
              <label class="field" style="margin:0"><span class="label">Follow-up</span>
                <textarea name="followUp" rows="3" placeholder="Same branch, same pull request: what should change next?" .value=${this.followUp}
                  @input=${(e: Event) => (this.followUp = (e.target as HTMLTextAreaElement).value)}></textarea></label>
              <div class="row">
                <button type="submit" class="button primary" ?disabled=${this.busy}>Send follow-up</button>
                <button type="button" class="button danger" ?disabled=${this.busy} @click=${() => this.archive(job)}>Archive</button>
              </div>
            </form>`
      }`
  }

  private openNew() {
    this.creating = true
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog.new-job')?.showModal())
  }

  private newDialog() {
    return html`<dialog class="modal new-job" aria-labelledby="new-job-title" @close=${() => (this.creating = false)}>
      <form @submit=${(e: Event) => this.create(e)}>
        <h2 id="new-job-title">New job</h2>
        <p class="muted">Tell the agent what to change in the docs. It works in a branch and opens a pull request.</p>
        <label class="field"><span class="label">Prompt</span>
          <textarea name="prompt" rows="5" required .value=${this.newPrompt} @input=${(e: Event) => (this.newPrompt = (e.target as HTMLTextAreaElement).value)}></textarea></label>
        <details><summary class="muted">Instructions the built-in offline editor understands</summary>
          <ul>${EXAMPLES.map((example) => html`<li><code>${example}</code></li>`)}</ul></details>
        <div class="dialog-actions">
          <button type="button" class="button" @click=${() => this.querySelector<HTMLDialogElement>('dialog.new-job')?.close()}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy}>Start</button>
        </div>
      </form>
    </dialog>`
  }

  private async create(event: Event) {
    event.preventDefault()
    if (!this.newPrompt.trim()) return
    this.busy = true
    try {
      const job = await api<AgentJob>(`${this.base}/job`, { method: 'POST', body: { prompt: this.newPrompt } })
      this.newPrompt = ''
      this.querySelector<HTMLDialogElement>('dialog.new-job')?.close()
      this.creating = false
      await this.reload()
      navigate(hrefOf(this.project.id, 'agent', job.id))
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private async sendFollowUp(event: Event, job: AgentJob) {
    event.preventDefault()
    if (!this.followUp.trim()) return
    this.busy = true
    try {
      await api<AgentJob>(`${this.base}/job/${encodeURIComponent(job.id)}/message`, { method: 'POST', body: { prompt: this.followUp } })
      this.followUp = ''
      await this.reload()
      this.watch()
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private async archive(job: AgentJob) {
    if (!confirm('Archive this job? A run in progress is cancelled, and no follow-up can be sent.')) return
    this.busy = true
    try {
      this.job = await api<AgentJob>(`${this.base}/job/${encodeURIComponent(job.id)}/archive`, { method: 'POST' })
      this.patchListed(this.job)
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }
}

customElements.define('screen-agent', AgentScreen)
