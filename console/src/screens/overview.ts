import { html } from 'lit'
import '../chart.ts'
import type { CallerStats, ConversationSummary, Gap } from '../../../shared/analytics.ts'
import { analyticsBase, gapsOf, summaryOf } from '../analytics.ts'
import { api } from '../api.ts'
import { count, percent, readerText } from '../format.ts'
import { rangeQuery } from '../range.ts'
import { hrefOf } from '../router.ts'
import { Screen } from '../screen.ts'
import { bar, emptyState, errorState, header, loadingState, rangePicker } from '../ui.ts'

interface OverviewData {
  summary: ConversationSummary
  callers: CallerStats
  gaps: Gap[]
}

/** The docs lead's first look: how much readers ask, how much the docs answer, how they feel, and where it fails. */
export class OverviewScreen extends Screen<OverviewData> {
  protected async fetchData(signal: AbortSignal): Promise<OverviewData> {
    const base = analyticsBase(this.project.id)
    // Every figure is counted by the server over the whole range, however many conversations it holds.
    const [summary, callers, gaps] = await Promise.all([
      summaryOf(this.project.id, this.range, signal),
      api<CallerStats>(`${base}/assistant/caller-stats?${rangeQuery(this.range)}`, { signal }),
      gapsOf(this.project.id, this.range, 'open', signal),
    ])
    return { summary, callers, gaps }
  }

  override render() {
    return html`${header('Overview', 'What readers asked the assistant, how often the docs had the answer, and where they did not.', rangePicker(this.range))}
    ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}`
  }

  private body({ summary, callers, gaps }: OverviewData) {
    const { conversations, answered, unanswered, bucket, buckets, ratings } = summary
    const topCategories = summary.categories.slice(0, 8)
    const rangeSearch = new URLSearchParams(this.search)
    const gapsHref = (id?: string) => hrefOf(this.project.id, 'gaps', id, rangeSearch)
    return html`
      <section class="grid kpis" aria-label="Key figures">
        <div class="card kpi"><span class="label">Conversations</span><span class="value">${count(conversations)}</span><span class="sub">questions readers asked</span></div>
        <div class="card kpi">
          <span class="label">Answered</span><span class="value">${percent(conversations ? answered / conversations : null)}</span>
          <span class="sub">${count(unanswered)} the docs did not cover</span>
        </div>
        <div class="card kpi">
          <span class="label">Satisfaction</span><span class="value">${percent(ratings.up + ratings.down ? ratings.up / (ratings.up + ratings.down) : null)}</span>
          <span class="sub">👍 ${count(ratings.up)} · 👎 ${count(ratings.down)}</span>
        </div>
        <div class="card kpi"><span class="label">Open gaps</span><span class="value">${count(gaps.length)}</span><span class="sub">topics the docs miss</span></div>
      </section>
      <div class="stack">
        <section class="card" aria-labelledby="per-bucket">
          <h2 id="per-bucket">Questions per ${bucket}</h2>
          ${
            conversations
              ? html`<bucket-chart
                  label=${`Questions per ${bucket} from ${this.range.from} to ${this.range.to}: ${answered} answered, ${unanswered} unanswered`}
                  .data=${{
                    bucket,
                    starts: buckets.map((entry) => entry.start),
                    series: [
                      { label: 'Answered', values: buckets.map((entry) => entry.answered), color: 'a' },
                      { label: 'Unanswered', values: buckets.map((entry) => entry.unanswered), color: 'b' },
                    ],
                  }}
                ></bucket-chart>`
              : emptyState('No questions in this range', 'Questions readers ask through the widget, the API or MCP show up here.')
          }
        </section>
        <div class="grid two">
          <section class="card" aria-labelledby="callers">
            <h2 id="callers">Where questions come from</h2>
            ${this.callerMix(callers)}
          </section>
          <section class="card" aria-labelledby="categories">
            <h2 id="categories">Top categories</h2>
            ${
              topCategories.length
                ? html`<ul class="list">
                    ${topCategories.map(
                      ({ name, count: n }) =>
                        html`<li class="meter-row">
                          <span>${name ?? 'Uncategorized'}</span>${bar(n / topCategories[0]!.count)}<span class="num" style="text-align:right">${count(n)}</span>
                        </li>`,
                    )}
                  </ul>`
                : emptyState('No categories yet', 'Each question is filed under the docs section its best source is in.')
            }
          </section>
        </div>
        <section class="card" aria-labelledby="top-gaps">
          <div class="card-head">
            <h2 id="top-gaps">Biggest open gaps</h2>
            <a href=${gapsHref()}>All gaps</a>
          </div>
          ${
            gaps.length
              ? html`<div class="table-wrap" tabindex="0"><table>
                  <thead><tr><th scope="col">What readers could not find</th><th scope="col" class="num">Asked</th><th scope="col">Last asked</th></tr></thead>
                  <tbody>
                    ${[...gaps]
                      .sort((a, b) => b.count - a.count)
                      .slice(0, 5)
                      .map(
                        (gap) =>
                          html`<tr>
                            <td><a href=${gapsHref(gap.id)}>${readerText(gap.title)}</a></td>
                            <td class="num">${count(gap.count)}</td>
                            <td>${gap.lastSeenAt.slice(0, 10)}</td>
                          </tr>`,
                      )}
                  </tbody>
                </table></div>`
              : emptyState('No open gaps', 'When readers ask what the docs do not cover, it is grouped here by topic.')
          }
        </section>
      </div>
    `
  }

  private callerMix(callers: CallerStats) {
    const parts = [
      { key: 'web', label: 'Docs site', value: callers.web, color: 'var(--chart-a)' },
      { key: 'api', label: 'API', value: callers.api, color: 'var(--chart-b)' },
      { key: 'other', label: 'MCP and other', value: callers.other, color: 'var(--muted)' },
    ]
    if (!callers.total) return emptyState('No questions yet', 'The split between the docs site, API calls and AI tools shows here.')
    return html`<div class="split" role="img" aria-label=${parts.map((p) => `${p.label} ${percent(p.value / callers.total)}`).join(', ')}>
        ${parts.map((p) => html`<span style=${`width:${(p.value / callers.total) * 100}%;background:${p.color}`}></span>`)}
      </div>
      <table>
        <tbody>
          ${parts.map(
            (p) =>
              html`<tr>
                <th scope="row"><span class="swatch" style=${`background:${p.color}`}></span>${p.label}</th>
                <td class="num">${count(p.value)}</td>
                <td class="num">${percent(p.value / callers.total)}</td>
              </tr>`,
          )}
        </tbody>
      </table>`
  }
}

customElements.define('screen-overview', OverviewScreen)
