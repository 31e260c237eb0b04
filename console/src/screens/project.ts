import { html, nothing } from 'lit'
import type { ProjectStatus } from '../../../shared/console.ts'
import { api } from '../api.ts'
import { ago, count, dateTime } from '../format.ts'
import { Screen } from '../screen.ts'
import { chip, errorState, header, loadingState } from '../ui.ts'

/** Where the project's docs come from and how they loaded; which models answer and edit; where the agent's PRs go. */
export class ProjectScreen extends Screen<ProjectStatus> {
  protected async fetchData(signal: AbortSignal) {
    return api<ProjectStatus>(`/v2/projects/${encodeURIComponent(this.project.id)}`, { signal })
  }

  override render() {
    return html`${header('Project', 'The docs Docent serves, the models it uses, and where the agent sends its pull requests.')}
    ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.body(this.data)}`
  }

  private body(project: ProjectStatus) {
    const { docs, model, agent } = project
    return html`<div class="grid two">
      <section class="card" aria-labelledby="docs">
        <div class="card-head"><h2 id="docs">Docs</h2>${docsChip(docs)}</div>
        ${
          docs.error
            ? html`<p class="callout danger" role="alert">${
                docs.revision === null
                  ? html`The docs did not load: ${docs.error}. Readers get no answers from this project until it is fixed.`
                  : html`The last load failed: ${docs.error}. The previous docs keep answering.`
              }</p>`
            : nothing
        }
        <dl class="facts">
          <dt>Source</dt><dd>${docs.kind === 'git' ? 'Git repository' : 'Folder'} <code>${docs.location}</code></dd>
          ${docs.ref ? html`<dt>Branch</dt><dd><code>${docs.ref}</code></dd>` : nothing}
          <dt>Revision</dt><dd><code>${docs.revision ?? '–'}</code></dd>
          <dt>Indexed</dt><dd>${count(docs.pages)} pages, ${count(docs.sections)} sections</dd>
          <dt>Last load</dt><dd>${docs.loadedAt ? html`<time datetime=${docs.loadedAt} title=${dateTime(docs.loadedAt)}>${ago(docs.loadedAt)}</time>${docs.loadMs !== null ? ` in ${(docs.loadMs / 1000).toFixed(1)} s` : ''}` : '–'}</dd>
          <dt>Last check</dt><dd>${docs.checkedAt ? html`<time datetime=${docs.checkedAt}>${ago(docs.checkedAt)}</time>` : '–'}</dd>
          <dt>Site</dt><dd>${siteText(project.site)}</dd>
        </dl>
        <h3 style="margin-top:16px">Parse problems</h3>
        ${
          docs.notMdx.length
            ? html`<p class="muted">${count(docs.notMdx.length)} page${docs.notMdx.length === 1 ? ' is' : 's are'} not valid MDX and ${docs.notMdx.length === 1 ? 'was' : 'were'} read as plain markdown; a docs site may fail to render ${docs.notMdx.length === 1 ? 'it' : 'them'}:</p>
                <ul class="sources">${docs.notMdx.slice(0, 50).map((path) => html`<li><code>${path}</code></li>`)}</ul>`
            : html`<p class="muted">None: every page parsed as MDX.</p>`
        }
        <h3 style="margin-top:16px">Files left out</h3>
        ${
          docs.problems.length
            ? html`<p class="muted">${count(docs.problems.length)} file${docs.problems.length === 1 ? ' was' : 's were'} left out of the index or read in part:</p>
                <ul class="sources">${docs.problems.slice(0, 50).map(({ file, problem }) => html`<li><code>${file}</code>: ${problem}</li>`)}</ul>`
            : html`<p class="muted">None: every page file was read.</p>`
        }
      </section>
      <div class="stack">
        <section class="card" aria-labelledby="models">
          <h2 id="models">Models</h2>
          <dl class="facts">
            <dt>Provider</dt><dd>${model.provider === 'offline' ? 'Built-in offline models (no API key)' : 'OpenAI or OpenAI-compatible'}</dd>
            <dt>Answers</dt><dd><code>${model.answer}</code></dd>
            <dt>Agent</dt><dd><code>${model.agent}</code></dd>
            <dt>Embeddings</dt><dd>${model.embedding ? html`<code>${model.embedding}</code> (hybrid search)` : 'none (BM25 search)'}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="agent-host">
          <h2 id="agent-host">Agent</h2>
          ${
            agent
              ? html`<dl class="facts">
                  <dt>Repository</dt><dd><code>${agent.repository}</code></dd>
                  <dt>Base branch</dt><dd><code>${agent.ref}</code></dd>
                  <dt>Pull requests</dt><dd>${agent.host === 'local' ? 'Local review pages (merge from the Gaps screen)' : `${agent.host === 'github' ? 'GitHub' : 'GitLab'} · ${agent.target}`}</dd>
                </dl>`
              : html`<p class="muted">No agent: set <code>agent.repository</code> in the project's config.</p>`
          }
        </section>
        <section class="card" aria-labelledby="mcp">
          <h2 id="mcp">MCP server</h2>
          <dl class="facts">
            <dt>URL</dt><dd><code>${location.origin}${project.mcp.path}</code></dd>
            <dt>Access</dt><dd>${project.mcp.public ? 'Public (no key)' : 'Assistant key'}</dd>
          </dl>
        </section>
      </div>
    </div>`
  }
}

customElements.define('screen-project', ProjectScreen)

/** Loaded, failed (before anything loaded, or a reload), or loaded with no pages (an empty folder: nothing to answer from). */
function docsChip(docs: ProjectStatus['docs']) {
  if (docs.error) return chip('failed', docs.revision === null ? 'Not loaded' : 'Reload failed')
  if (docs.revision !== null && docs.pages === 0) return chip('failed', 'No pages')
  return chip('completed', 'Loaded')
}

/** Where readers find the pages that source links point to, or why nowhere (then the links are dead until `siteUrl` is set). */
function siteText(site: ProjectStatus['site']) {
  if (site.servedBy === 'external' && site.url) return html`<a href=${site.url} target="_blank" rel="noreferrer">${site.url}</a>`
  if (site.servedBy === 'docent')
    return html`Served by Docent at <a href=${site.url ?? '/'} target="_blank" rel="noreferrer">${site.url ?? '/'}</a>`
  return site.why === 'private'
    ? 'None: the docs need a key, so Docent serves no pages for them. Set siteUrl to where they are published, or source links lead nowhere.'
    : "None: Docent serves one docs site, another project's. Set siteUrl to where these docs are published, or source links lead nowhere."
}
