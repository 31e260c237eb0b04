// Which store a deployment opens, read from the environment and docent.config.json before the config is parsed: the
// Node entry needs to know first, to compile PGlite's WebAssembly early only where PGlite will open.
import type { Env } from '../config.ts'

export const STORE_KINDS = ['memory', 'pglite', 'postgres', 'denokv'] as const
export const DEFAULT_STORE_KIND = 'pglite'

/** The store kind the environment or the file's `store.kind` names; undefined leaves the default. */
export function storeKindFrom(env: Env, file: Record<string, unknown>): unknown {
  const storeFromFile = (file.store ?? {}) as Record<string, unknown>
  // On Deno Deploy there is no disk for PGlite; Deno KV is the store it offers.
  const onDenoDeploy = Boolean(env.DENO_DEPLOYMENT_ID)
  return env.DOCENT_STORE || (env.DATABASE_URL ? 'postgres' : (storeFromFile.kind ?? (onDenoDeploy ? 'denokv' : undefined)))
}
