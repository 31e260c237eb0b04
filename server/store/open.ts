import type { DocentConfig } from '../config.ts'
import { MemoryStore } from './memory.ts'
import type { Store } from './types.ts'

/** Opens the configured store. Drivers are imported lazily so a deployment loads only the one it uses. */
export async function openStore(config: DocentConfig): Promise<Store> {
  switch (config.store.kind) {
    case 'memory':
      return new MemoryStore()
    case 'pglite': {
      const { openPgliteStore } = await import('./sql/pglite.ts')
      return openPgliteStore(`${config.dataDir}/pglite`)
    }
    case 'postgres': {
      if (!config.store.url) throw new Error('invalid config: store.url: DATABASE_URL is required for the postgres store')
      const { openPostgresStore } = await import('./sql/postgres.ts')
      return openPostgresStore(config.store.url)
    }
    case 'denokv': {
      const { openDenoKvStore } = await import('./denokv.ts')
      return openDenoKvStore(config.store.url)
    }
  }
}
