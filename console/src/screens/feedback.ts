import { html, nothing } from 'lit'
import type { FeedbackItem as Feedback, FeedbackByPage, FeedbackList, FeedbackStatus } from '../../../shared/analytics.ts'
import { analyticsBase } from '../analytics.ts'
import { api } from '../api.ts'
import { ago, count, dateTime, percent, readerText } from '../format.ts'
import { rangeQuery } from '../range.ts'
import { Screen } from '../screen.ts'
import { bar, chip, emptyState, errorState, header, loadingState, rangePicker } from '../ui.ts'

const STATUSES: Array<[FeedbackStatus, string]> = [
  ['pending', 'Pending'],
  ['in_progress', 'In progress'],
  ['resolved', 'Resolved'],
  ['dismissed', 'Dismissed'],
]

interface FeedbackData {
  byPage: FeedbackByPage
  items: Feedback[]
}

/** Readers' ratings by page, and their comments with a review workflow (pending → in progress → resolved | dismissed). */
export class FeedbackScreen extends Screen<FeedbackData> {
  static override properties = { ...Screen.properties, status: { state: true }, saving: { state: true } }
  declare status: FeedbackStatus | ''
  declare saving: string | null

  constructor() {
    super()
    this.status = ''
    this.saving = null
  }

  protected async fetchData(signal: AbortSignal): Promise<FeedbackData> {
    const base = analyticsBase(this.project.id)
    const query = rangeQuery(this.range)
    const [byPage, list] = await Promise.all([
      api<FeedbackByPage>(`${base}/feedback/by-page?${query}&limit=100`, { signal }),
      api<FeedbackList>(`${base}/feedback?${query}&limit=100`, { signal }),
    ])
    return { byPage, items: list.feedback }
  }

  override render() {
    return html`${header('Feedback', 'How readers rated the answers, page by page, and what they wrote. Move each comment through review.', rangePicker(this.range))}
    ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}`
  }

  private async move(item: Feedback, status: FeedbackStatus) {
    this.saving = item.id
    try {
      const updated = await api<Feedback>(`${analyticsBase(this.project.id)}/feedback/${encodeURIComponent(item.id)}`, {
        method: 'PATCH',
        body: { status },
      })
      this.data = {
        ...this.data!,
        items: this.data!.items.map((entry) => (entry.id === item.id ? { ...entry, ...(updated ?? {}), status } : entry)),
      }
    } catch (error) {
      this.error = (error as Error).message
    } finally {
      this.saving = null
    }
  }

  private body({ byPage, items }: FeedbackData) {
    const pages = [...byPage.feedback].sort((a, b) => b.thumbsDown - a.thumbsDown || b.total - a.total)
    const shown = items.filter((item) => !this.status || item.status === this.status)
    return html`<div class="stack">
      <section class="card" aria-labelledby="by-page">
        <h2 id="by-page">By page</h2>
        ${
          pages.length
            ? html`<div class="table-wrap" tabindex="0"><table>
                <thead><tr><th scope="col">Page</th><th scope="col" class="num">👍</th><th scope="col" class="num">👎</th><th scope="col">Helpful</th><th scope="col" class="num">Total</th></tr></thead>
                <tbody>
                  ${pages.map((page) => {
                    const rated = page.thumbsUp + page.thumbsDown
                    return html`<tr>
                      <td>${page.path}</td>
                      <td class="num">${count(page.thumbsUp)}</td>
                      <td class="num">${count(page.thumbsDown)}</td>
                      <td><span class="row">${bar(rated ? page.thumbsUp / rated : 0)} ${percent(rated ? page.thumbsUp / rated : null)}</span></td>
                      <td class="num">${count(page.total)}</td>
                    </tr>`
                  })}
                </tbody>
              </table></div>`
            : emptyState('No ratings in this range', 'Readers rate answers with 👍 and 👎 in the widget.')
        }
      </section>
      <section class="card" aria-labelledby="comments">
        <div class="card-head">
          <h2 id="comments">Comments and ratings</h2>
          <label class="row">Status
            <select @change=${(e: Event) => (this.status = (e.target as HTMLSelectElement).value as FeedbackStatus | '')}>
              <option value="">All</option>
              ${STATUSES.map(([value, label]) => html`<option value=${value} ?selected=${this.status === value}>${label}</option>`)}
            </select>
          </label>
        </div>
        ${
          shown.length
            ? html`<ul class="list">
                ${shown.map(
                  (item) => html`<li class="spread">
                    <div style="min-width:0;flex:1">
                      <div class="row"><span aria-label=${item.helpful ? 'Helpful' : 'Not helpful'}>${item.helpful ? '👍' : '👎'}</span> <strong>${item.path}</strong> ${chip(item.status)}</div>
                      ${item.comment ? html`<p style="margin:6px 0 0">${readerText(item.comment)}</p>` : html`<p class="muted" style="margin:6px 0 0">No comment</p>`}
                      <p class="muted" style="margin:4px 0 0"><time datetime=${item.createdAt} title=${dateTime(item.createdAt)}>${ago(item.createdAt)}</time>${item.contact ? html` · ${item.contact}` : nothing}</p>
                    </div>
                    ${
                      this.readOnly
                        ? nothing
                        : html`<label><span class="sr-only">Review status of the feedback on ${item.path}</span>
                            <select ?disabled=${this.saving === item.id} @change=${(e: Event) => this.move(item, (e.target as HTMLSelectElement).value as FeedbackStatus)}>
                              ${STATUSES.map(([value, label]) => html`<option value=${value} ?selected=${item.status === value}>${label}</option>`)}
                            </select></label>`
                    }
                  </li>`,
                )}
              </ul>`
            : emptyState('Nothing here', this.status ? 'No feedback with this status.' : 'Ratings and comments readers leave appear here.')
        }
      </section>
    </div>`
  }
}

customElements.define('screen-feedback', FeedbackScreen)
