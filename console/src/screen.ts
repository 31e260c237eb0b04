import { LitElement, type PropertyValues } from 'lit'
import type { ConsoleProject, ConsoleSession } from '../../shared/console.ts'
import type { DateRange } from './range.ts'

/**
 * A screen of the console. Screens render into the light DOM (the app's one stylesheet styles them) and load their
 * data again when the project, range or item changes. A request that met an ended session waits for the sign-in
 * dialog and is retried (api.ts), so a screen keeps what the person typed.
 */
export abstract class Screen<Data = unknown> extends LitElement {
  static override properties = {
    project: { attribute: false },
    session: { attribute: false },
    range: { attribute: false },
    itemId: { attribute: false },
    search: { attribute: false },
    data: { state: true },
    error: { state: true },
    loading: { state: true },
  }
  declare project: ConsoleProject
  declare session: ConsoleSession
  declare range: DateRange
  declare itemId: string | null
  declare search: URLSearchParams
  declare data: Data | undefined
  declare error: string | null
  declare loading: boolean
  private controller: AbortController | null = null

  constructor() {
    super()
    this.error = null
    this.loading = false
    this.itemId = null
  }

  protected override createRenderRoot() {
    return this
  }

  get readOnly(): boolean {
    return this.session?.scope === 'read'
  }

  /** The data of the screen for its current project, range and item. */
  protected abstract fetchData(signal: AbortSignal): Promise<Data>

  /** Which property changes mean new data. */
  protected reloadOn: string[] = ['project', 'range']

  protected override willUpdate(changed: PropertyValues) {
    if (this.reloadOn.some((name) => changed.has(name as keyof this))) void this.reload()
  }

  async reload() {
    this.controller?.abort()
    const controller = (this.controller = new AbortController())
    this.loading = true
    try {
      const data = await this.fetchData(controller.signal)
      if (controller.signal.aborted) return
      this.data = data
      this.error = null
    } catch (error) {
      if (controller.signal.aborted) return
      this.error = error instanceof Error ? error.message : String(error)
    } finally {
      if (!controller.signal.aborted) this.loading = false
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    this.controller?.abort()
  }
}
