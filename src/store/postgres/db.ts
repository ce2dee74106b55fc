// The pool every Postgres area shares, with the two ways the areas use it: one statement, or several
// in one transaction on one connection.
import pg from 'pg'
import type { Row } from '../rows.js'

/** What an area runs statements on: the pool, or the connection of a transaction under way. */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult<Row>>
}

// Times are milliseconds and seqs grow past 2^31: BIGINT. They stay far below 2^53, so numbers, not
// the strings pg gives by default (which would make every mapper convert).
const INT8 = 20
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
}

export interface PostgresDb extends Queryable {
  readonly pool: pg.Pool
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(work: (client: Queryable) => Promise<T>): Promise<T>
  /** One statement's rows. */
  rows(sql: string, params?: unknown[]): Promise<Row[]>
  /** One statement's first row, or null. */
  row(sql: string, params?: unknown[]): Promise<Row | null>
}

/** What a pool of its own needs beside the defaults (see openPool's). */
export interface PoolOptions {
  /** Connections at most (pg's default is 10). */
  max?: number
  /** A statement not answered within this is given up and its connection closed (none by default). */
  queryTimeoutMs?: number
}

export function openPool(connectionString: string, options: PoolOptions = {}): PostgresDb {
  // Idle connections stay a minute (pg's default is 10 s): a hub between two bursts keeps its
  // connections rather than start a server process for each again. A network that splits must not
  // hang a hub: connecting gives up after 10 s (pg waits forever by default), and TCP keepalives
  // find a dead connection the kernel would otherwise keep for many minutes.
  const pool = new pg.Pool({
    connectionString,
    types,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: 10_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 5_000,
    ...(options.max === undefined ? {} : { max: options.max }),
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
  })
  // An idle connection the server dropped errors on the pool; the next query opens a new one.
  pool.on('error', () => {})
  const query = (sql: string, params?: unknown[]) => pool.query<Row>(sql, params as unknown[])
  return {
    pool,
    query,
    async rows(sql, params) {
      return (await query(sql, params)).rows
    },
    async row(sql, params) {
      return (await query(sql, params)).rows[0] ?? null
    },
    async tx(work) {
      const client = await pool.connect()
      let result: Awaited<ReturnType<typeof work>>
      try {
        await client.query('BEGIN')
        result = await work(client as Queryable)
        await client.query('COMMIT')
      } catch (err) {
        // A connection that cannot even roll back is broken: it leaves the pool.
        const broken = await client.query('ROLLBACK').then(
          () => false,
          () => true,
        )
        client.release(broken)
        throw err
      }
      client.release()
      return result
    },
  }
}
