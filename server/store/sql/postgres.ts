import postgres from 'postgres'
import type { SqlClient, SqlQueries } from './client.ts'
import { migrate } from './migrations.ts'
import { SqlStore } from './store.ts'

type Sql = postgres.Sql | postgres.TransactionSql

const queries = (sql: Sql): SqlQueries => ({
  query: async <T>(text: string, params: unknown[] = []) =>
    [...(await sql.unsafe(text, params as postgres.ParameterOrJSON<never>[]))] as T[],
  simple: async (text: string) => void (await sql.unsafe(text).simple()),
})

/** Wraps a porsager `postgres` pool. */
export function postgresClient(sql: postgres.Sql): SqlClient {
  return {
    ...queries(sql),
    transaction: async (fn) => (await sql.begin((tx) => fn(queries(tx)))) as never,
    close: () => sql.end({ timeout: 5 }),
  }
}

/**
 * The URL without its password, for messages: the user's (`user:pass@`) and a query parameter that holds one
 * (`?password=`, `sslpassword`, `passfile` is a path and stays), which libpq and postgres.js both read.
 */
function redact(url: string): string {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = '***'
    for (const name of [...parsed.searchParams.keys()]) {
      if (/pass(word)?$|secret|token|key$/i.test(name)) parsed.searchParams.set(name, '***')
    }
    return parsed.toString()
  } catch {
    return 'DATABASE_URL (not a valid URL)'
  }
}

export interface PostgresStoreOptions {
  /** Connections in this instance's pool. */
  max?: number
  /** How long a verified key is trusted before it is read again (`KEY_CACHE_MS` by default). */
  keyCacheMs?: number
}

/**
 * The store on a PostgreSQL server (`DATABASE_URL`): several Docent instances may share it, they share keys, threads,
 * rate limits and the run queue. Migrations run at open under an advisory lock, so instances may start together.
 */
export async function openPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<SqlStore> {
  let sql: postgres.Sql | undefined
  try {
    sql = postgres(url, { max: options.max ?? 10, onnotice: () => {} })
    await migrate(postgresClient(sql))
  } catch (error) {
    await sql?.end({ timeout: 1 }).catch(() => {})
    throw new Error(`could not open the PostgreSQL store at ${redact(url)}: ${(error as Error).message}`, { cause: error })
  }
  return SqlStore.open('postgres', postgresClient(sql), { keyCacheMs: options.keyCacheMs })
}
