// The shared areas' statements (store/shared/) on Postgres, on the pool every area shares; a change
// the other hubs must hear of is announced by the transaction that writes it.
import type { Sql } from '../shared/sql.js'
import { announce } from './changes.js'
import type { PostgresDb } from './db.js'

export function postgresSql(db: PostgresDb, instance: string): Sql {
  return {
    dialect: 'postgres',
    all: (text, params) => db.rows(text, params as unknown[]),
    get: (text, params) => db.row(text, params as unknown[]),
    async run(text, params) {
      return (await db.query(text, params as unknown[])).rowCount ?? 0
    },
    batch: (statements) =>
      db.tx(async (tx) => {
        const changed: number[] = []
        for (const [text, params] of statements)
          changed.push((await tx.query(text, params as unknown[])).rowCount ?? 0)
        return changed
      }),
    announced: (text, params, change) =>
      db.tx(async (tx) => {
        const row = (await tx.query(text, params as unknown[])).rows[0] ?? null
        if (row) await announce(tx, instance, change(row))
        return row
      }),
  }
}
