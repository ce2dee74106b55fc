// Retention on either store (see Store.prune): each area's batch delete, all in one transaction, each
// statement taking $1 before and $2 limit. Only the order within PRUNE_EVENTS matters (see there):
// the other areas' tables stand alone.
import type { Store } from '../store.js'
import { PRUNE_OUTBOX } from './access.js'
import { PRUNE_BRIDGE_MEMORY } from './bridge-memory.js'
import { PRUNE_DECISIONS } from './decisions.js'
import { PRUNE_OUTBOUND_LOG } from './outbound.js'
import { PRUNE_DEAD_LETTERS } from './peers.js'
import { PRUNE_RECEIPTS } from './receipts.js'
import { PRUNE_ROUTINE_RUNS } from './routines.js'
import { PRUNE_SESSION_LINES } from './sessions.js'
import type { Sql, Statement } from './sql.js'
import { PRUNE_TERMINAL_SESSIONS } from './terminal-sessions.js'

/** The events area's batch: parked deliveries go before the events they hold. */
const PRUNE_EVENTS = [
  `DELETE FROM deliveries WHERE subscriber = '' AND seq IN
     (SELECT seq FROM events WHERE created_at < $1 ORDER BY seq LIMIT $2)`,
  `DELETE FROM events WHERE seq IN
     (SELECT e.seq FROM events e WHERE e.created_at < $1
        AND e.seq < (SELECT max(seq) FROM events)
        AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.seq = e.seq)
      ORDER BY e.seq LIMIT $2)`,
]

const PRUNE = [
  ...PRUNE_EVENTS,
  ...PRUNE_OUTBOX,
  ...PRUNE_DECISIONS,
  ...PRUNE_SESSION_LINES,
  ...PRUNE_OUTBOUND_LOG,
  ...PRUNE_DEAD_LETTERS,
  ...PRUNE_BRIDGE_MEMORY,
  ...PRUNE_TERMINAL_SESSIONS,
  ...PRUNE_RECEIPTS,
  ...PRUNE_ROUTINE_RUNS,
]

/**
 * One transaction for every area's batch: one commit per prune, however many areas there are.
 * `first`: what the store runs ahead of them in it (Postgres: the lock that lets one hub prune at a time).
 */
export function prune(sql: Sql, first: Statement[] = []): Store['prune'] {
  return async (before, limit) => {
    const changed = await sql.batch([...first, ...PRUNE.map((text): Statement => [text, [before, limit]])])
    return changed.slice(first.length).reduce((sum, n) => sum + n, 0)
  }
}
