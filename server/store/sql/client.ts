/** A row as both drivers return it: timestamptz as Date, json as parsed values, int4 as number. */
export type Row = Record<string, unknown>

/** What the SQL store needs from a driver: parameterized statements ($1, $2 ...) and transactions. */
export interface SqlQueries {
  query<T extends Row = Row>(text: string, params?: unknown[]): Promise<T[]>
  /**
   * Runs statements with no parameters over the simple query protocol. On PGlite a parameterized statement costs four
   * protocol exchanges more (parse, describe, bind, describe), several times the statement itself; the hottest writes
   * therefore come as literals (`sqlLiteral`).
   */
  simple(text: string): Promise<void>
}

export interface SqlClient extends SqlQueries {
  /** Runs `fn` in one transaction on one connection; commits when it resolves, rolls back when it throws. */
  transaction<T>(fn: (tx: SqlQueries) => Promise<T>): Promise<T>
  close(): Promise<void>
}
