import { mkdir } from 'node:fs/promises'
import { PGlite } from '@electric-sql/pglite'
import type { SqlClient, SqlQueries } from './client.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { migrate } from './migrations.ts'
import { SqlStore } from './store.ts'

const queries = (db: Pick<PGlite, 'query'>): SqlQueries => ({
  query: async <T>(text: string, params: unknown[] = []) => (await db.query<T>(text, params)).rows,
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
 * The embedded default store: Postgres compiled to WebAssembly, persisted in `dir` (`<DOCENT_DATA_DIR>/pglite`).
 * PGlite is single-process: only one process may open a data directory at a time (a second one would corrupt it), so
 * `<dir>.lock` names the owner and a second process is refused. To run several server instances, use a PostgreSQL
 * server (`DATABASE_URL`). An existing directory opens in well under a second; a new one runs initdb first (a few
 * seconds). On Deno it needs --allow-read and --allow-write.
 */
export async function openPgliteStore(dir: string): Promise<SqlStore> {
  await mkdir(dir, { recursive: true })
  const release = await lockDataDir(dir)
  let db: PGlite | undefined
  try {
    db = await PGlite.create({ dataDir: dir })
    await migrate(pgliteClient(db))
  } catch (error) {
    await db?.close().catch(() => {})
    await release()
    throw error
  }
  return new SqlStore('pglite', pgliteClient(db, release))
}
