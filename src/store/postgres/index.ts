// The store for several hubs: one Postgres database, reached with the pg client. This file opens it
// and applies the schema; the events area and the session lines are Postgres's own (here), every
// other area is written once for both stores (store/shared/), on one pool.
import { newId } from '../../core/ids.js'
import { combine } from '../combine.js'
import { accessStore } from '../shared/access.js'
import { bridgeMemoryStore } from '../shared/bridge-memory.js'
import { decisionStore } from '../shared/decisions.js'
import { leaseStore } from '../shared/leases.js'
import { outboundStore } from '../shared/outbound.js'
import { peerStore } from '../shared/peers.js'
import { pushStore } from '../shared/push.js'
import { receiptStore } from '../shared/receipts.js'
import { prune } from '../shared/retention.js'
import { routineStore } from '../shared/routines.js'
import { ruleStore } from '../shared/rules.js'
import { sessionRecords } from '../shared/sessions.js'
import { terminalSessionStore } from '../shared/terminal-sessions.js'
import { usageStore } from '../shared/usage.js'
import type { OtherChange, Store } from '../store.js'
import { listenForChanges } from './changes.js'
import { openPool, type PostgresDb } from './db.js'
import { postgresEventStore } from './events.js'
import { migrations } from './migrations.js'
import { postgresSessionLines } from './sessions.js'
import { postgresSql } from './sql.js'

/** Any constant both processes agree on: hubs starting together migrate one at a time. */
const MIGRATION_LOCK = 7_420_001
/**
 * Every hub prunes on its own timer; two batches deleting the same old rows in different orders
 * deadlock, so one hub prunes at a time (this lock, first in the prune's transaction) and the next
 * finds what is left.
 */
const PRUNE_LOCK = 7_420_002
/**
 * A renewal is one short UPDATE; one unanswered for this long is stuck on a dead connection (the
 * partition a fence is for), and past half a lease (10 s by default) it would barely put the fence off.
 */
const RENEWAL_TIMEOUT_MS = 5_000

/** Every area of the Store, on one Postgres database, its schema brought up to date first. */
export async function openPostgresStore(url: string): Promise<Store> {
  const db = openPool(url)
  // Lease renewals on a connection of their own, never queued behind the hub's deliveries (which
  // can take every connection of `db` under load): the hub's proof that it may go on delivering.
  // One that hangs (a split network) is given up, its connection closed, so the next opens another.
  const renewals = openPool(url, { max: 1, queryTimeoutMs: RENEWAL_TIMEOUT_MS })
  try {
    await migrate(db)
  } catch (err) {
    await Promise.all([db.pool.end(), renewals.pool.end()])
    throw err
  }
  // This store among all opened on the database: the wake-ups its own commits send are not for it.
  const instance = newId('store')
  const listeners: (() => Promise<void>)[] = []
  const sql = postgresSql(db, instance)
  return combine(
    postgresEventStore(db, instance),
    accessStore(sql),
    decisionStore(sql),
    sessionRecords(sql),
    postgresSessionLines(db),
    peerStore(sql),
    outboundStore(sql),
    ruleStore(sql),
    routineStore(sql),
    leaseStore(sql, postgresSql(renewals, instance)),
    bridgeMemoryStore(sql),
    terminalSessionStore(sql),
    receiptStore(sql),
    pushStore(sql),
    usageStore(sql),
    {
      prune: prune(sql, [['SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK]]]),
      onOtherChanges(listener: (change: OtherChange) => void) {
        listeners.push(listenForChanges(url, instance, listener))
      },
      async close() {
        await Promise.all(listeners.map((stop) => stop()))
        await Promise.all([db.pool.end(), renewals.pool.end()])
      },
    },
  )
}

async function migrate(db: PostgresDb): Promise<void> {
  await db.tx(async (tx) => {
    // Held to the end of this transaction; a second hub waits here, then finds the work done.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK])
    await tx.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)')
    const { rows } = await tx.query('SELECT version FROM schema_version')
    if (rows.length === 0) await tx.query('INSERT INTO schema_version (version) VALUES (0)')
    const version = (rows[0]?.version as number | undefined) ?? 0
    if (version > migrations.length)
      throw new Error(
        `the database's schema (version ${version}) is newer than this Switchboard (${migrations.length}): upgrade Switchboard`,
      )
    for (let v = version; v < migrations.length; v++) await tx.query(migrations[v] as string)
    await tx.query('UPDATE schema_version SET version = $1', [migrations.length])
  })
}
