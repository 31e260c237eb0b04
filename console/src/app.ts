import { html, LitElement, nothing } from 'lit'
import type { ConsoleProject, ConsoleSession } from '../../shared/console.ts'
import { ApiError, apiNoRetry, onRefused, onSessionEnded, showOrganization, UNREACHABLE } from './api.ts'
import { rangeFrom } from './range.ts'
import { hrefOf, navigate, type Place, placeOf } from './router.ts'
import type { Screen } from './screen.ts'
import { applyTheme, storedTheme, type ThemeChoice } from './theme.ts'

interface ScreenEntry {
  title: string
  group: 'insights' | 'act' | 'settings'
  load: () => Promise<unknown>
  tag: string
  icon: string
}

/** Each screen is its own chunk, loaded the first time it is opened. */
export const SCREENS: Record<string, ScreenEntry> = {
  overview: { title: 'Overview', group: 'insights', tag: 'screen-overview', icon: '◔', load: () => import('./screens/overview.ts') },
  conversations: {
    title: 'Conversations',
    group: 'insights',
    tag: 'screen-conversations',
    icon: '☰',
    load: () => import('./screens/conversations.ts'),
  },
  gaps: { title: 'Gaps', group: 'act', tag: 'screen-gaps', icon: '◇', load: () => import('./screens/gaps.ts') },
  searches: { title: 'Searches', group: 'insights', tag: 'screen-searches', icon: '⌕', load: () => import('./screens/searches.ts') },
  feedback: { title: 'Feedback', group: 'insights', tag: 'screen-feedback', icon: '♡', load: () => import('./screens/feedback.ts') },
  agent: { title: 'Agent', group: 'act', tag: 'screen-agent', icon: '⚙', load: () => import('./screens/agent.ts') },
  automations: {
    title: 'Automations',
    group: 'act',
    tag: 'screen-automations',
    icon: '↻',
    load: () => import('./screens/automations.ts'),
  },
  keys: { title: 'Keys', group: 'settings', tag: 'screen-keys', icon: '◈', load: () => import('./screens/keys.ts') },
  project: { title: 'Project', group: 'settings', tag: 'screen-project', icon: '▣', load: () => import('./screens/project.ts') },
}
const ORDER = ['overview', 'conversations', 'searches', 'feedback', 'gaps', 'agent', 'automations', 'keys', 'project']
const GROUPS: Array<[ScreenEntry['group'], string]> = [
  ['insights', 'Readers'],
  ['act', 'Improve'],
  ['settings', 'Settings'],
]

/**
 * The console: signs in, then shows the screen the URL names inside the shell (navigation, project switcher, theme,
 * sign-out). When a request meets an ended session the sign-in form opens over the screen, which stays as it was.
 * The session is the browser's, shared by its tabs: when another tab signs in as another organization, this one
 * says so and acts no more (the server refuses its requests too) until it is reloaded.
 */
export class DocentConsole extends LitElement {
  static override properties = {
    session: { state: true },
    place: { state: true },
    reauthenticating: { state: true },
    theme: { state: true },
    screenError: { state: true },
    elsewhere: { state: true },
  }
  declare session: ConsoleSession | null | undefined
  declare place: Place
  declare reauthenticating: boolean
  declare theme: ThemeChoice
  declare screenError: string | null
  /** The session another tab signed this browser in to, of another organization than the one on screen. */
  declare elsewhere: ConsoleSession | null
  private screens = new Map<string, Screen>()
  private waiting: Array<() => void> = []
  /** On a page load the browser's own start (the skip link first) is kept; later screens get the focus. */
  private focusScreens = false
  private checking: Promise<void> | null = null

  constructor() {
    super()
    this.session = undefined
    this.place = placeOf(location)
    this.reauthenticating = false
    this.theme = storedTheme()
    this.screenError = null
    this.elsewhere = null
  }

  protected override createRenderRoot() {
    return this
  }

  override connectedCallback() {
    super.connectedCallback()
    window.addEventListener('popstate', this.onLocation)
    window.addEventListener('docent-navigate', this.onLocation)
    this.addEventListener('click', this.onClick)
    // Back to this tab: another one may have signed out, or in as someone else, meanwhile.
    document.addEventListener('visibilitychange', this.onVisible)
    window.addEventListener('focus', this.onVisible)
    onSessionEnded(() => this.reauthenticate())
    onRefused(() => void this.checkSession())
    void this.loadSession()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    window.removeEventListener('popstate', this.onLocation)
    window.removeEventListener('docent-navigate', this.onLocation)
    document.removeEventListener('visibilitychange', this.onVisible)
    window.removeEventListener('focus', this.onVisible)
  }

  private async loadSession() {
    try {
      this.session = await apiNoRetry<ConsoleSession>('/console/session')
      showOrganization(this.session.organization)
      this.settle()
    } catch (error) {
      this.session = null
      if (!(error instanceof ApiError && error.status === 401)) this.screenError = (error as Error).message
    }
  }

  private onVisible = () => {
    if (document.visibilityState === 'visible') void this.checkSession()
  }

  /** Asks who is signed in (once at a time): the same as on screen, nobody, or another tab's sign-in. */
  private checkSession(): Promise<void> {
    this.checking ??= this.compareSession().finally(() => {
      this.checking = null
    })
    return this.checking
  }

  private async compareSession() {
    if (this.session === undefined) return
    let current: ConsoleSession
    try {
      current = await apiNoRetry<ConsoleSession>('/console/session')
    } catch (error) {
      // Signed out elsewhere (or expired): ask now rather than at the next click.
      if (error instanceof ApiError && error.status === 401 && this.session && !this.reauthenticating) void this.reauthenticate()
      return
    }
    const shown = this.session
    if (shown === undefined) return
    if (shown === null) this.onSignedIn(current)
    else if (current.organization !== shown.organization) {
      // The sign-in dialog signs this browser in again, as whoever types a key there; nothing to say over it.
      if (!this.reauthenticating) this.elsewhere = current
    } else if (this.elsewhere || this.reauthenticating || current.key.id !== shown.key.id || current.scope !== shown.scope) {
      // The same organization (back again, or with another of its keys): the screens are still right; take its scope.
      this.onSignedIn(current)
    }
  }

  private onLocation = () => {
    this.place = placeOf(location)
    this.settle()
  }

  /** Links inside the app move without a page load. */
  private onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const anchor = (event.target as Element).closest('a')
    if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return
    if (!anchor.pathname.startsWith('/console')) return
    event.preventDefault()
    navigate(anchor.pathname + anchor.search)
  }

  /** A URL without a known project or screen goes to the first project's overview. */
  private settle() {
    const session = this.session
    if (!session) return
    const project = session.projects.find((candidate) => candidate.id === this.place.project) ?? session.projects[0]
    if (!project) return
    const screen = this.place.screen && SCREENS[this.place.screen] ? this.place.screen : 'overview'
    if (project.id !== this.place.project || screen !== this.place.screen) {
      navigate(hrefOf(project.id, screen, this.place.id, this.place.search), { replace: true })
      return
    }
    void this.showScreen(project, screen)
  }

  private async showScreen(project: ConsoleProject, name: string) {
    const entry = SCREENS[name]!
    try {
      await entry.load()
    } catch (error) {
      // A screen's code comes on first use: failing, the server is most likely gone (or updated under the tab).
      console.error('Docent console: a screen failed to load', error)
      this.screenError = `This screen could not be loaded. ${UNREACHABLE} Reload the page when it is back.`
      return
    }
    const key = `${project.id}/${name}`
    let screen = this.screens.get(key)
    if (!screen) {
      this.screens.clear()
      screen = document.createElement(entry.tag) as Screen
      this.screens.set(key, screen)
    }
    const range = rangeFrom(this.place.search)
    screen.session = this.session!
    screen.project = project
    screen.search = this.place.search
    screen.itemId = this.place.id
    if (!screen.range || screen.range.from !== range.from || screen.range.to !== range.to || screen.range.preset !== range.preset) {
      screen.range = range
    }
    document.title = `${entry.title} · ${project.name} · Docent console`
    this.screenError = null
    this.requestUpdate()
    await this.updateComplete
    await screen.updateComplete
    // A new screen: focus its heading, so keyboard and screen-reader users start there.
    const heading = screen.querySelector('h1')
    if (this.focusScreens && heading && !screen.contains(document.activeElement)) heading.focus({ preventScroll: true })
    this.focusScreens = true
  }

  /** Opens the sign-in dialog over the screen; resolves when the person signed in again. */
  private reauthenticate(): Promise<void> {
    this.reauthenticating = true
    return new Promise((resolve) => this.waiting.push(resolve))
  }

  /**
   * Signed in: on the sign-in page, in the dialog over a screen, or in another tab. The requests waiting for it are sent
   * again naming the organization they were made in, so signed in to another one they are refused, not done there; its
   * projects replace the screen.
   */
  private onSignedIn(session: ConsoleSession) {
    const previous = this.session
    this.focusScreens = true
    this.session = session
    this.elsewhere = null
    this.reauthenticating = false
    showOrganization(session.organization)
    for (const resolve of this.waiting.splice(0)) resolve()
    if (previous?.organization === session.organization) {
      for (const screen of this.screens.values()) screen.session = session
      return
    }
    if (previous) {
      this.screens.clear()
      history.replaceState(null, '', '/console')
      this.place = placeOf(location)
    }
    this.settle()
  }

  private async signOut() {
    await apiNoRetry('/console/session', { method: 'DELETE' }).catch(() => undefined)
    showOrganization(null)
    this.elsewhere = null
    this.session = null
    this.screens.clear()
    history.replaceState(null, '', '/console')
    this.place = placeOf(location)
  }

  private setTheme(choice: ThemeChoice) {
    this.theme = choice
    applyTheme(choice)
  }

  override render() {
    if (this.session === undefined) return html`<div class="boot" role="status">Loading the console…</div>`
    if (this.session === null) {
      return html`<main id="main" class="signin-page">
        <sign-in-form .error=${this.screenError} @signed-in=${(e: CustomEvent<ConsoleSession>) => this.onSignedIn(e.detail)}></sign-in-form>
      </main>`
    }
    const session = this.session
    const project = session.projects.find((candidate) => candidate.id === this.place.project)
    const current = this.place.screen
    const screen = project && current ? this.screens.get(`${project.id}/${current}`) : undefined
    const keep = new URLSearchParams()
    for (const key of ['range', 'from', 'to']) {
      const value = this.place.search.get(key)
      if (value) keep.set(key, value)
    }
    return html`
      <a class="skip" href="#main" @click=${(e: Event) => {
        e.preventDefault()
        document.getElementById('main')?.focus()
      }}>Skip to content</a>
      <div class="layout">
        <nav class="sidebar" aria-label="Console">
          <div class="brand"><span class="brand-mark" aria-hidden="true">D</span> Docent <span class="brand-sub">console</span></div>
          ${
            session.projects.length > 1
              ? html`<label class="project-switch"
                  ><span class="label">Project</span>
                  <select
                    @change=${(e: Event) => navigate(hrefOf((e.target as HTMLSelectElement).value, current ?? 'overview', null, keep))}
                  >
                    ${session.projects.map((p) => html`<option value=${p.id} ?selected=${p.id === project?.id}>${p.name}</option>`)}
                  </select></label
                >`
              : html`<p class="project-name"><span class="label">Project</span> ${project?.name ?? ''}</p>`
          }
          ${GROUPS.map(
            ([group, label]) => html`<p class="nav-group">${label}</p>
              <ul>
                ${ORDER.filter((name) => SCREENS[name]!.group === group).map(
                  (name) =>
                    html`<li>
                      <a href=${hrefOf(project?.id ?? '', name, null, keep)} aria-current=${name === current ? 'page' : nothing}
                        ><span class="nav-icon" aria-hidden="true">${SCREENS[name]!.icon}</span>${SCREENS[name]!.title}</a
                      >
                    </li>`,
                )}
              </ul>`,
          )}
          <div class="sidebar-foot">
            <p class="who">
              <span class="label">Organization</span> ${session.organization}
              ${session.scope === 'read' ? html`<span class="chip neutral" title="This key can see everything and change nothing">Read-only</span>` : nothing}
            </p>
            <label class="theme-switch"
              ><span class="label">Theme</span>
              <select @change=${(e: Event) => this.setTheme((e.target as HTMLSelectElement).value as ThemeChoice)}>
                ${(['system', 'light', 'dark'] as const).map(
                  (choice) =>
                    html`<option value=${choice} ?selected=${this.theme === choice}>${choice[0]!.toUpperCase() + choice.slice(1)}</option>`,
                )}
              </select></label
            >
            <button type="button" class="button ghost" @click=${() => this.signOut()}>Sign out</button>
          </div>
        </nav>
        <main id="main" tabindex="-1">
          ${this.screenError ? html`<div class="callout danger" role="alert">${this.screenError}</div>` : (screen ?? html`<p class="muted" role="status">Loading…</p>`)}
        </main>
      </div>
      ${
        this.reauthenticating
          ? html`<sign-in-dialog @signed-in=${(e: CustomEvent<ConsoleSession>) => this.onSignedIn(e.detail)}></sign-in-dialog>`
          : nothing
      }
      ${
        this.elsewhere
          ? html`<session-changed-dialog .shown=${session.organization} .current=${this.elsewhere.organization}></session-changed-dialog>`
          : nothing
      }
    `
  }
}
