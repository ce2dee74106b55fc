// Retention on Postgres (see Store.prune): every area's batch deletes, run in one transaction, each
// statement taking $1 before and $2 limit.
import type { Store } from '../store.js'
import { PRUNE_OUTBOX } from './access.js'
import { PRUNE_BRIDGE_MEMORY } from './bridge-memory.js'
import type { PostgresDb } from './db.js'
import { PRUNE_DECISIONS } from './decisions.js'
import { PRUNE_EVENTS } from './events.js'
import { PRUNE_OUTBOUND_LOG } from './outbound.js'
import { PRUNE_DEAD_LETTERS } from './peers.js'
import { PRUNE_SESSION_LINES } from './sessions.js'

// Only the order within PRUNE_EVENTS matters (see there): the other areas' tables stand alone.
const PRUNE = [
  ...PRUNE_EVENTS,
  ...PRUNE_OUTBOX,
  ...PRUNE_DECISIONS,
  ...PRUNE_SESSION_LINES,
  ...PRUNE_OUTBOUND_LOG,
  ...PRUNE_DEAD_LETTERS,
  ...PRUNE_BRIDGE_MEMORY,
]

/** Any constant every hub agrees on (index.ts's MIGRATION_LOCK is another). */
const PRUNE_LOCK = 7_420_002

export function postgresPrune(db: PostgresDb): Store['prune'] {
  // One transaction for every area's batch: one commit per prune, however many areas there are.
  return (before, limit) =>
    db.tx(async (tx) => {
      // Every hub sweeps on its own timer; two batches deleting the same old rows in different orders
      // deadlock, so one hub prunes at a time and the next finds what is left.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [PRUNE_LOCK])
      let deleted = 0
      for (const sql of PRUNE) deleted += (await tx.query(sql, [before, limit])).rowCount ?? 0
      return deleted
    })
}
