import { html } from 'lit'
import type { SearchTermList as SearchPage, SearchTerm } from '../../../shared/analytics.ts'
import { analyticsBase } from '../analytics.ts'
import { api } from '../api.ts'
import { ago, count, pathOf, percent } from '../format.ts'
import { rangeQuery } from '../range.ts'
import { Screen } from '../screen.ts'
import { bar, emptyState, errorState, header, loadingState, rangePicker } from '../ui.ts'

/** What readers type into search: the top terms, the ones that find nothing, and how often a result is clicked. */
export class SearchesScreen extends Screen<SearchPage> {
  protected async fetchData(signal: AbortSignal) {
    return api<SearchPage>(`${analyticsBase(this.project.id)}/searches?${rangeQuery(this.range)}&limit=100`, { signal })
  }

  override render() {
    return html`${header('Searches', 'What readers search for, which terms find nothing, and how often they click a result.', rangePicker(this.range))}
    ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}`
  }

  private body(data: SearchPage) {
    const terms = data.searches
    const noResult = terms.filter((term) => term.noResults > 0).sort((a, b) => b.noResults - a.noResults)
    // Click-through over the terms listed (the API's top 100): clicks are counted per term, capped at one a search.
    const clicks = terms.reduce((sum, term) => sum + Math.min(term.clicks, term.hits), 0)
    const hits = terms.reduce((sum, term) => sum + term.hits, 0)
    const top = terms[0]?.hits ?? 1
    return html`<section class="grid kpis" aria-label="Key figures">
        <div class="card kpi"><span class="label">Searches</span><span class="value">${count(data.totalSearches)}</span><span class="sub">${count(terms.length)} distinct terms</span></div>
        <div class="card kpi"><span class="label">Click-through</span><span class="value">${percent(hits ? clicks / hits : null)}</span><span class="sub">searches followed by a click</span></div>
        <div class="card kpi"><span class="label">No result</span><span class="value">${count(data.noResultSearches)}</span><span class="sub">searches that found nothing</span></div>
      </section>
      <div class="grid two">
        <section class="card" aria-labelledby="top-terms">
          <h2 id="top-terms">Top terms</h2>
          ${terms.length ? this.table(terms.slice(0, 50), top) : emptyState('No searches in this range', 'Searches from the widget, the search API and MCP show up here.')}
        </section>
        <section class="card" aria-labelledby="no-result">
          <h2 id="no-result">Terms with no result</h2>
          ${noResult.length ? this.table(noResult.slice(0, 50), noResult[0]!.noResults, 'warning', 'noResults') : emptyState('Every term found something', 'Terms the docs have nothing for are the clearest gaps.')}
        </section>
      </div>`
  }

  /** `by`: what the bar and the count show: all searches of a term, or those that found nothing. */
  private table(terms: SearchTerm[], top: number, tone = 'accent', by: 'hits' | 'noResults' = 'hits') {
    return html`<div class="table-wrap" tabindex="0"><table>
      <thead><tr><th scope="col">Term</th><th scope="col" class="num">${by === 'hits' ? 'Searches' : 'With no result'}</th><th scope="col" class="num">CTR</th><th scope="col">Top clicked page</th><th scope="col">Last</th></tr></thead>
      <tbody>
        ${terms.map(
          (term) => html`<tr>
            <td><span style="display:block">${term.searchQuery}</span>${bar(term[by] / top, tone)}</td>
            <td class="num">${count(term[by])}</td>
            <td class="num">${percent(term.ctr)}</td>
            <td>${term.topClickedPage ? pathOf(term.topClickedPage) : '–'}</td>
            <td><time datetime=${term.lastSearchedAt}>${ago(term.lastSearchedAt)}</time></td>
          </tr>`,
        )}
      </tbody>
    </table></div>`
  }
}

customElements.define('screen-searches', SearchesScreen)
