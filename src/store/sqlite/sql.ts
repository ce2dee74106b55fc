// The shared areas' statements (store/shared/) on SQLite: each prepared once and kept, its $n
// parameters bound by name, a boolean as 1 or 0.
import type Database from 'better-sqlite3'
import type { Row } from '../rows.js'
import type { Params, Sql } from '../shared/sql.js'

/** Statements kept prepared; a store whose statements vary more (IN lists) starts the cache over. */
const KEPT = 256

export function sqliteSql(db: Database.Database): Sql {
  const prepared = new Map<string, Database.Statement>()
  const statement = (text: string) => {
    let s = prepared.get(text)
    if (!s) {
      if (prepared.size >= KEPT) prepared.clear()
      s = db.prepare(text)
      prepared.set(text, s)
    }
    return s
  }
  const bind = (params: Params = []) => {
    const named: Record<number, unknown> = {}
    params.forEach((v, i) => {
      named[i + 1] = typeof v === 'boolean' ? Number(v) : v
    })
    return named
  }
  return {
    dialect: 'sqlite',
    async all(text, params) {
      return statement(text).all(bind(params)) as Row[]
    },
    async get(text, params) {
      return (statement(text).get(bind(params)) as Row | undefined) ?? null
    },
    async run(text, params) {
      return statement(text).run(bind(params)).changes
    },
    async batch(statements) {
      return db.transaction(() =>
        statements.map(([text, params]) => statement(text).run(bind(params)).changes),
      )()
    },
    async announced(text, params) {
      return (statement(text).get(bind(params)) as Row | undefined) ?? null
    },
  }
}
