// Retention in SQLite (see Store.prune): every area's batch deletes, run in one transaction.
import type Database from 'better-sqlite3'
import type { Store } from '../store.js'
import { PRUNE_OUTBOX } from './access.js'
import { PRUNE_BRIDGE_MEMORY } from './bridge-memory.js'
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

export function sqlitePrune(db: Database.Database): Store['prune'] {
  const statements = PRUNE.map((sql) => db.prepare(sql))
  // One transaction for every area's batch: one commit per prune, however many areas there are.
  const pruneTx = db.transaction((before: number, limit: number) =>
    statements.reduce((n, statement) => n + statement.run({ before, limit }).changes, 0),
  )
  return async (before, limit) => pruneTx(before, limit)
}
