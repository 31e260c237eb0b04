import type { DocentConfig } from '../config.ts'
import type { Logger } from '../log.ts'
import type { SearchService } from './types.ts'

export interface SearchServiceDeps {
  config: DocentConfig
  log: Logger
  fetch: typeof fetch
}

// Not built yet: replaced by the search feature.
export function createSearchService(_deps: SearchServiceDeps): SearchService {
  return {
    corpus: async () => {
      throw new Error('search is not built yet')
    },
    refresh: async () => ({ revision: '', changed: false }),
    start() {},
    stop() {},
  }
}
