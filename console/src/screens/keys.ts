import { html, nothing } from 'lit'
import type { ApiKey, ApiKeyList, CreatedKey, CreateKeyBody } from '../../../shared/console.ts'
import { api } from '../api.ts'
import { date } from '../format.ts'
import { Screen } from '../screen.ts'
import { chip, emptyState, errorState, header, loadingState } from '../ui.ts'

/** The organization's keys: who can reach the API, with what scope, until when; a new key is shown once. */
export class KeysScreen extends Screen<ApiKeyList> {
  static override properties = {
    ...Screen.properties,
    created: { state: true },
    creating: { state: true },
    busy: { state: true },
    notice: { state: true },
    copied: { state: true },
  }
  declare created: CreatedKey | null
  declare creating: boolean
  declare busy: boolean
  declare notice: string | null
  declare copied: boolean
  private draft: { name: string; kind: 'admin' | 'assistant'; scope: 'read' | 'write'; expires: string } = {
    name: '',
    kind: 'admin',
    scope: 'write',
    expires: '90',
  }

  constructor() {
    super()
    this.created = null
    this.creating = false
    this.busy = false
    this.notice = null
    this.copied = false
  }

  protected async fetchData(signal: AbortSignal) {
    return api<ApiKeyList>('/v2/keys', { signal })
  }

  override render() {
    const controls = this.readOnly
      ? nothing
      : html`<button type="button" class="button primary" @click=${() => this.openCreate()}>Create key</button>`
    return html`${header('Keys', `Admin keys reach the API and this console for ${this.session.organization}; assistant keys go in docs pages. A read key sees everything and changes nothing.`, controls)}
      ${this.created ? this.shownOnce(this.created) : nothing}
      ${this.notice ? html`<p class="callout danger" role="alert">${this.notice}</p>` : nothing}
      ${this.error ? errorState(this.error, () => this.reload()) : !this.data ? loadingState() : this.table(this.data.keys)}
      ${this.creating ? this.createDialog() : nothing}`
  }

  private shownOnce(created: CreatedKey) {
    return html`<section class="card" style="margin-bottom:16px" aria-labelledby="new-key">
      <h2 id="new-key">Your new key: copy it now</h2>
      <p class="muted">This is the only time it is shown. Docent keeps only its hash.</p>
      <div class="secret">
        <code data-secret>${created.secret}</code>
        <button type="button" class="button" @click=${() => this.copy(created.secret)}>${this.copied ? 'Copied' : 'Copy'}</button>
      </div>
      <button type="button" class="link" @click=${() => (this.created = null)}>I have saved it</button>
    </section>`
  }

  private async copy(secret: string) {
    try {
      await navigator.clipboard.writeText(secret)
      this.copied = true
    } catch {
      // No clipboard (plain HTTP, permissions): the key is selectable text.
      const range = document.createRange()
      range.selectNodeContents(this.querySelector('[data-secret]')!)
      getSelection()?.removeAllRanges()
      getSelection()?.addRange(range)
    }
  }

  private table(keys: ApiKey[]) {
    if (keys.length === 0) return emptyState('No keys', 'Create one to reach the API.')
    return html`<section class="card"><div class="table-wrap" tabindex="0"><table>
      <thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Kind</th><th scope="col">Scope</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Status</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
      <tbody>
        ${keys.map(
          (key) => html`<tr>
            <td>${key.name ?? html`<span class="muted">unnamed</span>`} ${key.id === this.session.key.id ? html`<span class="chip info">you</span>` : nothing}</td>
            <td><code>${key.hint}</code></td>
            <td>${key.kind === 'admin' ? 'Admin' : `Assistant · ${key.projectId}`}</td>
            <td>${key.kind === 'admin' ? chip(key.scope, key.scope === 'read' ? 'Read' : 'Write') : html`<span class="muted">–</span>`}</td>
            <td>${date(key.createdAt)}</td>
            <td>${key.expiresAt ? date(key.expiresAt) : 'Never'}</td>
            <td>${chip(key.status)}</td>
            <td>${
              !this.readOnly && key.status === 'active'
                ? html`<button type="button" class="button danger" aria-label=${`Revoke ${key.name ?? key.hint}`} ?disabled=${this.busy} @click=${() => this.revoke(key)}>Revoke</button>`
                : nothing
            }</td>
          </tr>`,
        )}
      </tbody>
    </table></div></section>`
  }

  private openCreate() {
    this.creating = true
    void this.updateComplete.then(() => this.querySelector<HTMLDialogElement>('dialog.create-key')?.showModal())
  }

  private createDialog() {
    const set = (name: keyof typeof this.draft) => (e: Event) => {
      this.draft = { ...this.draft, [name]: (e.target as HTMLInputElement).value }
      this.requestUpdate()
    }
    return html`<dialog class="modal create-key" aria-labelledby="create-key-title" @close=${() => (this.creating = false)}>
      <form @submit=${(e: Event) => this.create(e)}>
        <h2 id="create-key-title">Create a key</h2>
        <label class="field"><span class="label">Name</span>
          <input name="name" required maxlength="100" placeholder="CI deploys, Jane's laptop…" .value=${this.draft.name} @input=${set('name')} /></label>
        <label class="field"><span class="label">Kind</span>
          <select name="kind" @change=${set('kind')}>
            <option value="admin" ?selected=${this.draft.kind === 'admin'}>Admin: the API and this console</option>
            <option value="assistant" ?selected=${this.draft.kind === 'assistant'}>Assistant: the widget on ${this.project.name} (public)</option>
          </select></label>
        ${
          this.draft.kind === 'admin'
            ? html`<label class="field"><span class="label">Scope</span>
                <select name="scope" @change=${set('scope')}>
                  <option value="write" ?selected=${this.draft.scope === 'write'}>Write: everything</option>
                  <option value="read" ?selected=${this.draft.scope === 'read'}>Read: sees everything, changes nothing</option>
                </select></label>`
            : nothing
        }
        <label class="field"><span class="label">Expires</span>
          <select name="expires" @change=${set('expires')}>
            ${[
              ['30', 'In 30 days'],
              ['90', 'In 90 days'],
              ['365', 'In a year'],
              ['', 'Never'],
            ].map(([value, label]) => html`<option value=${value!} ?selected=${this.draft.expires === value}>${label}</option>`)}
          </select></label>
        <div class="dialog-actions">
          <button type="button" class="button" @click=${() => this.querySelector<HTMLDialogElement>('dialog.create-key')?.close()}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy}>Create</button>
        </div>
      </form>
    </dialog>`
  }

  private async create(event: Event) {
    event.preventDefault()
    if (!this.draft.name.trim()) return
    this.busy = true
    const body: CreateKeyBody = {
      name: this.draft.name.trim(),
      kind: this.draft.kind,
      ...(this.draft.kind === 'admin' ? { scope: this.draft.scope } : { projectId: this.project.id }),
      expiresInDays: this.draft.expires ? Number(this.draft.expires) : null,
    }
    try {
      this.created = await api<CreatedKey>('/v2/keys', { method: 'POST', body })
      this.copied = false
      this.draft = { name: '', kind: 'admin', scope: 'write', expires: '90' }
      this.querySelector<HTMLDialogElement>('dialog.create-key')?.close()
      this.creating = false
      this.notice = null
      await this.reload()
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }

  private async revoke(key: ApiKey) {
    const yours = key.id === this.session.key.id ? ' You signed in with this key: your session ends with it.' : ''
    if (!confirm(`Revoke ${key.name ?? key.hint}? It stops working at once.${yours}`)) return
    this.busy = true
    try {
      await api<ApiKey>(`/v2/keys/${encodeURIComponent(key.id)}/revoke`, { method: 'POST' })
      await this.reload()
    } catch (error) {
      this.notice = (error as Error).message
    } finally {
      this.busy = false
    }
  }
}

customElements.define('screen-keys', KeysScreen)
