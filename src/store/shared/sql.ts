// What an area written once for both stores (this folder) runs its statements on. A statement is
// spelled so both databases read it alike: parameters are $1, $2… (Postgres's; SQLite takes them by
// name), a name sorts by its bytes with COLLATE "BINARY" (SQLite's; a Postgres migration defines it
// as C's order), booleans are true, false and NOT (SQLite reads them as 1 and 0, and its runner
// passes a boolean parameter as one). Where the two still differ, an area writes both, side by side.
import type { Row } from '../rows.js'
import type { OtherChange } from '../store.js'

export type Params = readonly unknown[]
export type Statement = readonly [text: string, params?: Params]

export interface Sql {
  readonly dialect: 'sqlite' | 'postgres'
  /** The rows of a query, or of a change that returns them (RETURNING). */
  all(text: string, params?: Params): Promise<Row[]>
  /** Its first row, or null. */
  get(text: string, params?: Params): Promise<Row | null>
  /** Runs a change; how many rows it changed. */
  run(text: string, params?: Params): Promise<number>
  /** The statements in order, in one transaction; how many rows each changed. */
  batch(statements: readonly Statement[]): Promise<number[]>
  /**
   * Runs a change that returns a row (or none) and, when it did, tells the other hubs on the database
   * of it in the same transaction, so they hear of it once it commits and never of one rolled back
   * (Postgres). A SQLite file has one hub: there it is `get`.
   */
  announced(text: string, params: Params, change: (row: Row) => OtherChange): Promise<Row | null>
}

/** Rows at a time for a statement that names its rows by a list (`id IN (…)`). */
const IN_LIST = 500

/** Runs `statement` once per slice of `ids`, each given as its list of parameters ($1, $2…). */
export async function forEachSlice(
  sql: Sql,
  ids: readonly unknown[],
  statement: (list: string) => string,
): Promise<number> {
  let changed = 0
  for (let i = 0; i < ids.length; i += IN_LIST) {
    const slice = ids.slice(i, i + IN_LIST)
    changed += await sql.run(statement(slice.map((_, n) => `$${n + 1}`).join(', ')), slice)
  }
  return changed
}
