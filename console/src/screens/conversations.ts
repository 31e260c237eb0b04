import { html, nothing, type PropertyValues } from 'lit'
import type { Conversation, ConversationSummary, AnalyticsThread as Thread } from '../../../shared/analytics.ts'
import { analyticsBase, CONVERSATIONS_PAGE, conversationsPage, summaryOf } from '../analytics.ts'
import { api } from '../api.ts'
import { ago, count, dateTime, linkPieces, pathOf, readerText } from '../format.ts'
import { hrefOf } from '../router.ts'
import { Screen } from '../screen.ts'
import { chip, emptyState, errorState, header, loadingState, rangePicker } from '../ui.ts'

interface Filters {
  category: string
  resolution: '' | 'answered' | 'unanswered'
  rating: '' | 'up' | 'down'
  page: string
}

interface ConversationsData {
  /** The pages loaded so far, newest first. */
  turns: Conversation[]
  /** The cursor of the next, older page; null once the oldest conversation of the range is loaded. */
  nextCursor: string | null
  /** The range's totals and categories, counted by the server over every conversation of it. */
  summary: ConversationSummary
}

/**
 * Every question readers asked, filterable, with the transcript, its sources and the reader's rating. The range is
 * read a page at a time, newest first ("Load more" reads the next), so a range of any size stays quick to open.
 */
export class ConversationsScreen extends Screen<ConversationsData> {
  static override properties = {
    ...Screen.properties,
    filters: { state: true },
    thread: { state: true },
    loadingMore: { state: true },
    moreError: { state: true },
  }
  declare filters: Filters
  declare thread: Thread | null | 'loading'
  declare loadingMore: boolean
  declare moreError: string | null
  /** The conversation whose thread is shown (or on its way): loading more pages does not load it again. */
  private threadOf: string | null = null
  private moreController: AbortController | null = null

  constructor() {
    super()
    this.filters = { category: '', resolution: '', rating: '', page: '' }
    this.thread = null
    this.loadingMore = false
    this.moreError = null
  }

  protected async fetchData(signal: AbortSignal): Promise<ConversationsData> {
    const [page, summary] = await Promise.all([
      conversationsPage(this.project.id, this.range, null, signal),
      summaryOf(this.project.id, this.range, signal),
    ])
    return { turns: page.conversations, nextCursor: page.hasMore ? page.nextCursor : null, summary }
  }

  override async reload() {
    // A page of the old range must not land in the new one.
    this.moreController?.abort()
    this.loadingMore = false
    this.moreError = null
    await super.reload()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    this.moreController?.abort()
  }

  protected override willUpdate(changed: PropertyValues) {
    super.willUpdate(changed)
    if ((changed.has('itemId') || changed.has('data')) && (this.selected()?.id ?? null) !== this.threadOf) void this.loadThread()
  }

  private selected(): Conversation | undefined {
    return this.data?.turns.find((turn) => turn.id === this.itemId)
  }

  private async loadThread() {
    const turn = this.selected()
    this.threadOf = turn?.id ?? null
    if (!turn?.threadId) {
      this.thread = null
      return
    }
    this.thread = 'loading'
    try {
      const thread = await api<Thread>(`${analyticsBase(this.project.id)}/assistant/threads/${encodeURIComponent(turn.threadId)}`)
      if (this.threadOf === turn.id) this.thread = thread
    } catch {
      if (this.threadOf === turn.id) this.thread = null
    }
  }

  /** Reads the next page and adds it below; focus moves to the first question it brought that the filters show. */
  private async loadMore() {
    const data = this.data
    if (!data?.nextCursor || this.loadingMore) return
    const controller = (this.moreController = new AbortController())
    this.loadingMore = true
    this.moreError = null
    try {
      const page = await conversationsPage(this.project.id, this.range, data.nextCursor, controller.signal)
      if (controller.signal.aborted) return
      this.data = { ...data, turns: [...data.turns, ...page.conversations], nextCursor: page.hasMore ? page.nextCursor : null }
      this.loadingMore = false
      await this.updateComplete
      const first = this.visible(page.conversations)[0]
      if (first) this.querySelector<HTMLElement>(`.pick-list a[data-id="${CSS.escape(first.id)}"]`)?.focus()
    } catch (error) {
      if (controller.signal.aborted) return
      this.moreError = error instanceof Error ? error.message : String(error)
      this.loadingMore = false
    }
  }

  private visible(turns: Conversation[]) {
    const { category, resolution, rating, page } = this.filters
    return turns.filter(
      (turn) =>
        (!category || (turn.queryCategory ?? 'Uncategorized') === category) &&
        (!resolution || turn.resolutionStatus === resolution) &&
        (!rating || turn.feedback?.rating === rating) &&
        (!page || (turn.pageUrl ?? '').toLowerCase().includes(page.toLowerCase())),
    )
  }

  private set(patch: Partial<Filters>) {
    this.filters = { ...this.filters, ...patch }
  }

  override render() {
    return html`${header('Conversations', 'Each question readers asked, the answer they got, its sources and their rating.', rangePicker(this.range))}
    ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}`
  }

  private body({ turns, nextCursor, summary }: ConversationsData) {
    const categories = [
      ...new Set(
        [...summary.categories.map((entry) => entry.name), ...turns.map((turn) => turn.queryCategory)].map(
          (name) => name ?? 'Uncategorized',
        ),
      ),
    ].sort()
    const shown = this.visible(turns)
    const selected = this.selected()
    const { category, resolution, rating, page } = this.filters
    const filtered = Boolean(category || resolution || rating || page)
    const total = Math.max(summary.conversations, turns.length)
    const left = total - turns.length
    return html`
      <form class="row card" style="margin-bottom:16px" aria-label="Filter conversations" @submit=${(e: Event) => e.preventDefault()}>
        <label class="row">Category
          <select @change=${(e: Event) => this.set({ category: (e.target as HTMLSelectElement).value })}>
            <option value="">All</option>
            ${categories.map((name) => html`<option ?selected=${this.filters.category === name}>${name}</option>`)}
          </select>
        </label>
        <label class="row">Answer
          <select @change=${(e: Event) => this.set({ resolution: (e.target as HTMLSelectElement).value as Filters['resolution'] })}>
            <option value="">All</option><option value="answered">Answered</option><option value="unanswered">Unanswered</option>
          </select>
        </label>
        <label class="row">Rating
          <select @change=${(e: Event) => this.set({ rating: (e.target as HTMLSelectElement).value as Filters['rating'] })}>
            <option value="">Any</option><option value="up">👍 Helpful</option><option value="down">👎 Not helpful</option>
          </select>
        </label>
        <label class="row">Page
          <input type="search" placeholder="/guides/…" .value=${this.filters.page} @input=${(e: Event) => this.set({ page: (e.target as HTMLInputElement).value })} />
        </label>
        <span class="muted" role="status">${
          filtered
            ? `${count(shown.length)} match of the ${count(turns.length)} loaded (${count(total)} in this range)`
            : `${count(turns.length)} of ${count(total)}`
        }</span>
      </form>
      ${
        turns.length === 0
          ? emptyState('No conversations in this range', 'Questions asked through the widget, the API or MCP appear here as they come in.')
          : html`<div class="master-detail ${this.itemId ? 'has-selection' : ''}">
              <section class="card" aria-label="Questions">
                ${
                  shown.length
                    ? html`<ul class="pick-list">
                        ${shown.map(
                          (turn) =>
                            html`<li>
                              <a href=${hrefOf(this.project.id, 'conversations', turn.id, this.search)} data-id=${turn.id} aria-current=${turn.id === this.itemId ? 'true' : 'false'}>
                                <span class="pick-title">${readerText(turn.query)}</span>
                                <span class="pick-meta">
                                  ${chip(turn.resolutionStatus)} ${turn.feedback?.rating ? html`<span>${turn.feedback?.rating === 'up' ? '👍' : '👎'}</span>` : nothing}
                                  <span>${turn.queryCategory ?? 'Uncategorized'}</span>
                                  <time datetime=${turn.timestamp} title=${dateTime(turn.timestamp)}>${ago(turn.timestamp)}</time>
                                </span>
                              </a>
                            </li>`,
                        )}
                      </ul>`
                    : emptyState(
                        'Nothing matches',
                        nextCursor ? 'None of those loaded: load more, or change the filters.' : 'Change the filters to see more.',
                      )
                }
                ${this.moreError ? errorState(this.moreError, () => this.loadMore()) : nothing}
                ${
                  nextCursor
                    ? html`<p style="margin:12px 0 0">
                        <button type="button" class="button" aria-disabled=${this.loadingMore ? 'true' : 'false'} @click=${() => this.loadMore()}>
                          ${this.loadingMore ? 'Loading…' : left > 0 ? `Load ${count(Math.min(CONVERSATIONS_PAGE, left))} more` : 'Load more'}
                        </button>
                      </p>`
                    : nothing
                }
              </section>
              <section class="card" aria-label="Transcript">${
                selected
                  ? this.transcript(selected)
                  : this.itemId && nextCursor
                    ? emptyState('Not among those loaded yet', 'This question is older than the ones loaded: load more to reach it.')
                    : emptyState('Pick a question', 'Its transcript, sources and rating show here.')
              }</section>
            </div>`
      }
    `
  }

  private transcript(turn: Conversation) {
    const thread = this.thread
    const messages =
      thread && thread !== 'loading'
        ? thread.messages
        : [
            { id: `${turn.id}-q`, role: 'user' as const, content: turn.query, createdAt: turn.timestamp },
            { id: `${turn.id}-a`, role: 'assistant' as const, content: turn.response, createdAt: turn.timestamp },
          ]
    return html`<div class="spread" style="margin-bottom:12px">
        <h2>Transcript</h2>
        <span class="row">${chip(turn.resolutionStatus)} ${turn.feedback?.rating ? html`<span>${turn.feedback?.rating === 'up' ? '👍 Helpful' : '👎 Not helpful'}</span>` : nothing}</span>
      </div>
      <dl class="facts" style="margin-bottom:16px">
        <dt>Asked</dt><dd>${dateTime(turn.timestamp)}</dd>
        <dt>Page</dt><dd>${turn.pageUrl ? html`<a href=${turn.pageUrl} rel="noreferrer" target="_blank">${pathOf(turn.pageUrl)}</a>` : 'not known'}</dd>
        <dt>Category</dt><dd>${turn.queryCategory ?? 'Uncategorized'}</dd>
        ${turn.caller ? html`<dt>From</dt><dd>${turn.caller === 'web' ? 'Docs site' : turn.caller === 'api' ? 'API' : 'MCP or other'}</dd>` : nothing}
      </dl>
      ${thread === 'loading' ? html`<p class="muted" role="status">Loading the whole conversation…</p>` : nothing}
      ${messages.map((message) => html`<p class="bubble ${message.role}"><span class="sr-only">${message.role === 'user' ? 'Reader' : 'Assistant'}: </span>${message.role === 'user' ? readerText(message.content) : withLinks(message.content)}</p>`)}
      <h3>Sources</h3>
      ${
        turn.sources.length
          ? html`<ol class="sources">
              ${turn.sources.map((source) => html`<li><a href=${source.url} target="_blank" rel="noreferrer">${source.title}</a> <span class="muted">${pathOf(source.url)}</span></li>`)}
            </ol>`
          : html`<p class="muted">No sources: the docs had nothing close enough.</p>`
      }`
  }
}

/** An answer as the reader saw it: its markdown links as links, opened away from the console. */
const withLinks = (text: string) =>
  linkPieces(text).map((piece) =>
    typeof piece === 'string' ? piece : html`<a href=${piece.href} target="_blank" rel="noreferrer">${piece.label}</a>`,
  )

customElements.define('screen-conversations', ConversationsScreen)
