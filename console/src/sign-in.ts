import { html, LitElement, nothing } from 'lit'
import type { ConsoleSession } from '../../shared/console.ts'
import { ApiError, apiNoRetry } from './api.ts'

/** Signs in with an admin key; the key goes to the server once and is not kept (the session is an HttpOnly cookie). */
export class SignInForm extends LitElement {
  static override properties = { error: { attribute: false }, busy: { state: true }, compact: { type: Boolean } }
  declare error: string | null
  declare busy: boolean
  declare compact: boolean

  constructor() {
    super()
    this.error = null
    this.busy = false
    this.compact = false
  }

  protected override createRenderRoot() {
    return this
  }

  private async submit(event: SubmitEvent) {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const input = form.elements.namedItem('key') as HTMLInputElement
    this.busy = true
    try {
      const session = await apiNoRetry<ConsoleSession>('/console/session', { method: 'POST', body: { key: input.value } })
      input.value = ''
      this.error = null
      this.dispatchEvent(new CustomEvent('signed-in', { detail: session, bubbles: true, composed: true }))
    } catch (error) {
      this.error =
        error instanceof ApiError && error.status === 429
          ? `Too many attempts from this address. Try again in ${Math.ceil((error.retryAfter ?? 60) / 60)} minutes.`
          : error instanceof ApiError && error.status === 401
            ? 'This key does not open the console. Use an admin key (svc_…) of your organization.'
            : `Could not sign in: ${(error as Error).message}`
      input.select()
    } finally {
      this.busy = false
    }
  }

  override render() {
    return html`<form class="signin ${this.compact ? 'compact' : ''}" @submit=${this.submit} novalidate>
      ${
        this.compact
          ? html`<h2 id="signin-title">Your session has ended</h2>
              <p class="muted">Sign in again to carry on. What you were doing is still here.</p>`
          : html`<div class="brand big"><span class="brand-mark" aria-hidden="true">D</span> Docent</div>
              <h1 id="signin-title" tabindex="-1">Sign in to the console</h1>
              <p class="muted">See what readers ask, where the docs fail them, and let the agent fix it.</p>`
      }
      <label class="field">
        <span class="label">Admin key</span>
        <input
          name="key"
          type="password"
          autocomplete="off"
          spellcheck="false"
          required
          placeholder="svc_…"
          aria-describedby="key-help ${this.error ? 'key-error' : ''}"
          aria-invalid=${this.error ? 'true' : 'false'}
          autofocus
        />
      </label>
      ${this.error ? html`<p id="key-error" class="field-error" role="alert">${this.error}</p>` : nothing}
      <button class="button primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Signing in…' : 'Sign in'}</button>
      <p id="key-help" class="help">
        The first <code>npm start</code> prints an admin key; <code>docent keys create --org ORG --kind admin</code> makes more. The
        key is exchanged for a 12-hour session and is not stored in this browser.
      </p>
    </form>`
  }
}

/** Opens the `<dialog>` an element renders as a modal that Escape cannot close: what is behind it would not work. */
export function showBlockingModal(host: Element): void {
  const dialog = host.querySelector('dialog')!
  dialog.showModal()
  dialog.addEventListener('cancel', (event) => event.preventDefault())
}

/** The same form in a modal dialog over the screen, when a session ends while the console is open. */
export class SignInDialog extends LitElement {
  protected override createRenderRoot() {
    return this
  }

  override firstUpdated() {
    // Without a session nothing on the screen works.
    showBlockingModal(this)
  }

  override render() {
    return html`<dialog class="modal" aria-labelledby="signin-title"><sign-in-form compact></sign-in-form></dialog>`
  }
}
