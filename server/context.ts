import type { Analytics } from './analytics/service.ts'
import type { DocentConfig, Env } from './config.ts'
import type { Logger } from './log.ts'
import type { Projects } from './projects.ts'
import type { SearchService } from './search/types.ts'
import type { Store } from './store/types.ts'

/** Capabilities built once in `createDocent` and passed to every route and worker. */
export interface DocentContext {
  config: DocentConfig
  store: Store
  projects: Projects
  log: Logger
  now: () => Date
  /** Outbound HTTP (git hosts, model servers); tests pass their own. */
  fetch: typeof fetch
  search: SearchService
  /** Environment variables that config `{ env: NAME }` references (tokens, API keys) resolve against. */
  env: Env
  /** Recording, the analytics API's data, gaps and their fixes' progress. */
  analytics: Analytics
  /** Background tasks started by `start()` register their stop functions here. */
  onStop: Array<() => Promise<void> | void>
}
