import { html, nothing, type TemplateResult } from 'lit'
import { navigate } from './router.ts'
import type { DateRange } from './range.ts'

/** The screen's heading row: title, a one-line purpose, and controls at the end. */
export function header(title: string, lede: string, controls: TemplateResult | typeof nothing = nothing) {
  return html`<header class="screen-head">
    <div>
      <h1 tabindex="-1">${title}</h1>
      <p class="lede">${lede}</p>
    </div>
    <div class="screen-controls">${controls}</div>
  </header>`
}

/** Date range presets and a custom from/to, kept in the URL. */
export function rangePicker(range: DateRange) {
  const go = (params: Record<string, string>) => {
    const search = new URLSearchParams(location.search)
    for (const key of ['range', 'from', 'to']) search.delete(key)
    for (const [key, value] of Object.entries(params)) search.set(key, value)
    navigate(`${location.pathname}?${search}`, { replace: true })
  }
  return html`<div class="range" role="group" aria-label="Date range">
    ${['7d', '30d', '90d'].map(
      (preset) =>
        html`<button type="button" class="seg" aria-pressed=${range.preset === preset ? 'true' : 'false'} @click=${() => go({ range: preset })}>
          ${preset.replace('d', ' days')}
        </button>`,
    )}
    <label class="range-date"
      ><span class="sr-only">From</span
      ><input
        type="date"
        .value=${range.from}
        max=${range.to}
        @change=${(e: Event) => go({ from: (e.target as HTMLInputElement).value, to: range.to })}
    /></label>
    <span aria-hidden="true">–</span>
    <label class="range-date"
      ><span class="sr-only">To</span
      ><input type="date" .value=${range.to} min=${range.from} @change=${(e: Event) => go({ from: range.from, to: (e.target as HTMLInputElement).value })}
    /></label>
  </div>`
}

export const loadingState = () => html`<p class="muted" role="status">Loading…</p>`

export function errorState(message: string, retry?: () => void) {
  return html`<div class="callout danger" role="alert">
    <strong>Could not load this.</strong> ${message} ${retry ? html`<button type="button" class="link" @click=${retry}>Try again</button>` : nothing}
  </div>`
}

export function emptyState(title: string, body: string | TemplateResult) {
  return html`<div class="empty"><p class="empty-title">${title}</p><p class="muted">${body}</p></div>`
}

const STATUS_TONES: Record<string, string> = {
  active: 'info',
  completed: 'success',
  failed: 'danger',
  archived: 'neutral',
  open: 'warning',
  in_progress: 'info',
  pr_open: 'info',
  merged: 'info',
  fixed: 'success',
  dismissed: 'neutral',
  pending: 'warning',
  resolved: 'success',
  answered: 'success',
  unanswered: 'warning',
  revoked: 'neutral',
  expired: 'neutral',
  read: 'neutral',
  write: 'info',
  on: 'success',
  off: 'neutral',
}

export const STATUS_LABELS: Record<string, string> = {
  in_progress: 'In progress',
  pr_open: 'PR open',
}

export function chip(status: string, label = STATUS_LABELS[status] ?? status[0]!.toUpperCase() + status.slice(1)) {
  return html`<span class="chip ${STATUS_TONES[status] ?? 'neutral'}">${label}</span>`
}

/** A horizontal share bar inside a table cell or list: decorative, the number beside it says the same. */
export const bar = (share: number, tone = 'accent') =>
  html`<span class="bar ${tone}" aria-hidden="true"><span style=${`width:${Math.max(0, Math.min(1, share)) * 100}%`}></span></span>`
