import type { ReactiveController, ReactiveControllerHost } from 'lit'
import type { Variant } from './variant.ts'

type Host = ReactiveControllerHost & HTMLElement & { variant: Variant }

/**
 * Keeps the launcher and the panel fixed to the viewport whatever the page does to `html` or `body`. A `transform`,
 * `filter`, `perspective`, `contain` or `will-change` there makes that element the box `position: fixed` is relative
 * to, so the launcher ended up at the bottom of the document, off-screen. The host is shown as a manual popover
 * instead: the browser's top layer, whose fixed descendants are placed in the viewport again. Manual: no light
 * dismiss, nothing else closes it. The inline variant stays in the page's flow; a browser without popovers (before
 * 2024) keeps the plain `position: fixed`.
 */
export class TopLayerController implements ReactiveController {
  readonly #host: Host

  constructor(host: Host) {
    this.#host = host
    host.addController(this)
  }

  hostConnected() {
    this.#sync()
  }

  hostUpdated() {
    this.#sync()
  }

  #sync() {
    const host = this.#host
    const wanted = host.variant !== 'inline'
    if (!('showPopover' in host) || !host.isConnected || wanted === host.matches(':popover-open')) return
    // Removing the attribute hides it: the inline variant goes back into the page's flow.
    host.popover = wanted ? 'manual' : null
    if (wanted) host.showPopover()
  }
}
