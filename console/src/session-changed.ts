import { html, LitElement } from 'lit'
import { showBlockingModal } from './sign-in.ts'

/**
 * Over the screen when another tab signed this browser in to another organization: this tab's screens are the first
 * organization's, and the server refuses what they would do (the requests name it), so the way on is a reload.
 */
export class SessionChangedDialog extends LitElement {
  static override properties = { shown: { attribute: false }, current: { attribute: false } }
  /** The organization this tab shows. */
  declare shown: string
  /** The organization the browser is signed in to now. */
  declare current: string

  protected override createRenderRoot() {
    return this
  }

  override firstUpdated() {
    // Behind it, every button would be refused.
    showBlockingModal(this)
  }

  override render() {
    return html`<dialog class="modal" aria-labelledby="session-changed-title" aria-describedby="session-changed-text">
      <h2 id="session-changed-title">Signed in to another organization</h2>
      <p id="session-changed-text">
        This tab shows <strong>${this.shown}</strong>, but another tab has signed this browser in to
        <strong>${this.current}</strong>. Nothing is done from this tab until you reload it.
      </p>
      <div class="dialog-actions">
        <button type="button" class="button primary" autofocus @click=${() => location.reload()}>Reload as ${this.current}</button>
      </div>
    </dialog>`
  }
}
