import { chmod, mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type { SqlClient, SqlQueries } from './client.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { migrate } from './migrations.ts'
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

export interface PgliteStoreOptions {
  counterFlushMs?: number
}

/**
 * The embedded default store: Postgres compiled to WebAssembly, persisted in `dir` (`<DOCENT_DATA_DIR>/pglite`).
 * PGlite is single-process: only one process may open a data directory at a time (a second one would corrupt it), so
 * `<dir>.lock` names the owner and a second process is refused. To run several server instances, use a PostgreSQL
 * server (`DATABASE_URL`). An existing directory opens in well under a second; a new one runs initdb first (a few
 * seconds). On Deno it needs --allow-read and --allow-write.
 */
export async function openPgliteStore(dir: string, options: PgliteStoreOptions = {}): Promise<SqlStore> {
  // The database holds key hashes, threads and jobs: readable by this user only, like PostgreSQL's own data directory.
  await mkdir(dir, { recursive: true, mode: 0o700 })
  await chmod(dir, 0o700)
  const release = await lockDataDir(dir)
  let db: PGlite | undefined
  try {
    // Relaxed durability skips PGlite's wait for a filesystem sync after every statement (a third to two thirds of a
    // statement's time, measured). On the Node filesystem that sync has nothing to do: PostgreSQL's writes go straight to
    // the data directory's files, so a kill -9 loses nothing more; only IndexedDB-like filesystems buffer.
    db = await PGlite.create({ dataDir: dir, relaxedDurability: true })
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
