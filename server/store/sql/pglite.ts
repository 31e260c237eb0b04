import { existsSync } from 'node:fs'
import { chmod, copyFile, cp, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import type { SqlClient, SqlQueries } from './client.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { migrate } from './migrations.ts'
import { pgliteWasmCompiling } from './pglite-wasm.ts'
import { SqlStore } from './store.ts'

const queries = (db: Pick<PGlite, 'query' | 'exec'>): SqlQueries => ({
  query: async <T>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows,
  simple: async (text: string) => void (await db.exec(text)),
})

/** Wraps an open PGlite instance (PGlite queues statements and transactions on its one connection). */
export function pgliteClient(db: PGlite, onClose: () => Promise<void> = async () => {}): SqlClient {
  let closing: Promise<void> | undefined
  return {
    ...queries(db),
    transaction: (fn) => db.transaction((tx) => fn(queries(tx))),
    close: () => (closing ??= db.close().finally(onClose)),
  }
}

/**
 * How often the embedded store writes its rate-limit counters: a kill -9 loses at most this long of counting (those
 * requests may then be admitted once more), in exchange for no database round trip per request.
 */
export const COUNTER_FLUSH_MS = 1000

/**
 * PostgreSQL's settings for the embedded store, after PGlite's own (single-user mode, no parallel workers). Its data
 * directory keeps initdb's server defaults, sized for a shared server: 128 MB of shared buffers, which PostgreSQL claims
 * and touches at start. Docent's database is a few MB of keys, threads and jobs plus the analytics events, so 16 MB of
 * buffers holds its working set; measured (open + 300 inserts + 50 scans, RSS of the process): 128 MB 324-335 MiB,
 * 32 MB 204-218, 16 MB 173-209, 8 MB 181-198, 8 MB with max_connections=4 190-199. The WebAssembly memory then stays
 * at its floor (128 MiB reserved, not all touched) instead of growing to 189 MiB.
 */
export const PGLITE_SETTINGS = ['shared_buffers=16MB']

/** PGlite's defaults (PGlite.defaultStartParams, 0.5) with our settings after them: a later -c wins. */
const startParams = (defaults: readonly string[]) => [...defaults, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])]

/**
 * A data directory straight from initdb, made once by bin/build-server.mjs next to the built server (server/dist), per
 * PGlite version. initdb in PGlite runs a second PostgreSQL and the initdb program in WebAssembly beside the first: a
 * first start took 5.6-7.2 s and peaked at 730-880 MiB, against 0.5-0.9 s and ~170 MiB for opening an existing
 * directory. A new data directory is a copy of this one instead, so a first start does what a second start does.
 * Where there is none (the TypeScript run by tsx, Deno or Bun), PGlite runs initdb as before.
 */
const TEMPLATE = new URL('./pglite-template/', import.meta.url)

/** Copies the template into a `dir` with no database yet; PG_VERSION last, so a copy cut short is redone, never opened. */
async function seedFromTemplate(dir: string, template: string | undefined): Promise<void> {
  if (template === undefined || existsSync(join(dir, 'PG_VERSION')) || !existsSync(join(template, 'PG_VERSION'))) return
  await cp(template, dir, { recursive: true, filter: (source) => source !== join(template, 'PG_VERSION') })
  await copyFile(join(template, 'PG_VERSION'), join(dir, 'PG_VERSION'))
}

export interface PgliteStoreOptions {
  counterFlushMs?: number
  /** A closed data directory a new one is copied from; by default the built server's (absent: initdb). */
  template?: string
}

/**
 * The embedded default store: Postgres compiled to WebAssembly, persisted in `dir` (`<DOCENT_DATA_DIR>/pglite`).
 * PGlite is single-process: only one process may open a data directory at a time (a second one would corrupt it), so
 * `<dir>.lock` names the owner and a second process is refused. To run several server instances, use a PostgreSQL
 * server (`DATABASE_URL`). An existing directory opens in well under a second; a new one is copied from the built
 * server's template, or else made by initdb (a few seconds). On Deno it needs --allow-read and --allow-write.
 */
export async function openPgliteStore(dir: string, options: PgliteStoreOptions = {}): Promise<SqlStore> {
  // The database holds key hashes, threads and jobs: readable by this user only, like PostgreSQL's own data directory.
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
  const release = await lockDataDir(dir)
  let db: PGlite | undefined
  try {
    await seedFromTemplate(dir, options.template ?? (TEMPLATE.protocol === 'file:' ? fileURLToPath(TEMPLATE) : undefined))
    // Relaxed durability skips PGlite's wait for a filesystem sync after every statement (a third to two thirds of a
    // statement's time, measured). On the Node filesystem that sync has nothing to do: PostgreSQL's writes go straight to
    // the data directory's files, so a kill -9 loses nothing more; only IndexedDB-like filesystems buffer.
    db = await PGlite.create({
      dataDir: dir,
      relaxedDurability: true,
      startParams: startParams(PGlite.defaultStartParams),
      pgliteWasmModule: await pgliteWasmCompiling(),
    })
    await migrate(pgliteClient(db))
    return await SqlStore.open('pglite', pgliteClient(db, release), {
      exclusive: { counterFlushMs: options.counterFlushMs ?? COUNTER_FLUSH_MS },
    })
  } catch (error) {
    await db?.close().catch(() => {})
    await release()
    throw error
  }
}
