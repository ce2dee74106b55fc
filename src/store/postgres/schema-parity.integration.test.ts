// The two stores' schemas, after every migration, side by side: the same tables with the same
// columns, of comparable types, nullable alike, keyed alike and defaulted alike, so the two migration
// lists cannot drift apart (rows.ts reads both stores' rows with one set of mappers).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type PostgresServer, startPostgres } from '../../../test/helpers/postgres.js'
import { openSqliteStore } from '../sqlite/index.js'
import { openPostgresStore } from './index.js'

/** A column as both stores can say it: SQLite keeps booleans as integers, so Postgres's count as one. */
interface Column {
  type: 'text' | 'integer' | 'real'
  notNull: boolean
  primaryKey: boolean
  hasDefault: boolean
}
type Schema = Record<string, Record<string, Column>>

/** Each store's own bookkeeping, with no counterpart in the other. */
const ONLY = {
  sqlite: new Set(['sqlite_sequence']), // AUTOINCREMENT's counters
  // schema_version: SQLite keeps it in PRAGMA user_version. event_seq: the row whose lock hands out
  // event seqs in commit order across hubs (see postgres/events.ts); one SQLite writer needs none.
  postgres: new Set(['schema_version', 'event_seq']),
}

function sqliteType(declared: string): Column['type'] {
  const types: Record<string, Column['type']> = { TEXT: 'text', INTEGER: 'integer', REAL: 'real' }
  const type = types[declared.toUpperCase()]
  if (!type) throw new Error(`SQLite column type ${declared} has no Postgres counterpart here`)
  return type
}

function postgresType(declared: string): Column['type'] {
  const types: Record<string, Column['type']> = {
    text: 'text',
    bigint: 'integer',
    integer: 'integer',
    boolean: 'integer',
    'double precision': 'real',
  }
  const type = types[declared]
  if (!type) throw new Error(`Postgres column type ${declared} has no SQLite counterpart here`)
  return type
}

function sqliteSchema(file: string): Schema {
  const db = new Database(file, { readonly: true })
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string
    }[]
    const schema: Schema = {}
    for (const { name } of tables) {
      if (ONLY.sqlite.has(name)) continue
      const columns = db.prepare(`PRAGMA table_info(${JSON.stringify(name)})`).all() as {
        name: string
        type: string
        notnull: number
        dflt_value: string | null
        pk: number
      }[]
      schema[name] = Object.fromEntries(
        columns.map((c) => [
          c.name,
          {
            type: sqliteType(c.type),
            // A key's column holds no null in either (SQLite's PRAGMA says so only when declared).
            notNull: c.notnull === 1 || c.pk > 0,
            primaryKey: c.pk > 0,
            // A key gets its value from a sequence in Postgres, from the rowid in SQLite.
            hasDefault: c.pk === 0 && c.dflt_value !== null,
          },
        ]),
      )
    }
    return schema
  } finally {
    db.close()
  }
}

async function postgresSchema(url: string): Promise<Schema> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{
      table_name: string
      column_name: string
      data_type: string
      is_nullable: 'YES' | 'NO'
      column_default: string | null
      primary_key: boolean
    }>(
      `SELECT c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default,
         EXISTS (SELECT 1 FROM information_schema.table_constraints t
                 JOIN information_schema.key_column_usage k
                   ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
                 WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema
                   AND t.table_name = c.table_name AND k.column_name = c.column_name) AS primary_key
       FROM information_schema.columns c
       WHERE c.table_schema = current_schema()
       ORDER BY c.table_name, c.ordinal_position`,
    )
    const schema: Schema = {}
    for (const r of rows) {
      if (ONLY.postgres.has(r.table_name)) continue
      schema[r.table_name] ??= {}
      ;(schema[r.table_name] as Record<string, Column>)[r.column_name] = {
        type: postgresType(r.data_type),
        notNull: r.is_nullable === 'NO',
        primaryKey: r.primary_key,
        hasDefault: !r.primary_key && r.column_default !== null,
      }
    }
    return schema
  } finally {
    await client.end()
  }
}

let server: PostgresServer
let dir: string
beforeAll(async () => {
  server = await startPostgres()
  dir = mkdtempSync(join(tmpdir(), 'switchboard-schema-'))
}, 60_000)
afterAll(async () => {
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('has the same tables and columns in SQLite and Postgres once every migration ran', async () => {
  const file = join(dir, 'switchboard.db')
  await openSqliteStore(file).close()
  const url = await server.database()
  await (await openPostgresStore(url)).close()

  // One comparison, so a failure shows every difference at once.
  expect(await postgresSchema(url)).toEqual(sqliteSchema(file))
})
