// The embedded default store: one SQLite file in WAL mode, shared by the hub and the CLI. This file
// opens it; the events area and the session lines are SQLite's own (here), every other area is
// written once for both stores (store/shared/), on the one database handle.
import { chmodSync, existsSync } from 'node:fs'
import Database from 'better-sqlite3'
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
import type { Store } from '../store.js'
import { sqliteEventStore } from './events.js'
import { migrations } from './migrations.js'
import { checkpointOffThread, type OffThreadCheckpoints } from './off-thread-checkpoints.js'
import { sqliteSessionLines } from './sessions.js'
import { sqliteSql } from './sql.js'

export interface SqliteOptions {
  /** `full` fsyncs every commit (survives power loss); `normal` survives any process crash. */
  synchronous?: 'normal' | 'full'
  /**
   * `worker`: WAL checkpoints run in a worker thread every second, once the log has grown, instead of
   * inside whichever commit crosses SQLite's threshold (the hub's choice: its event loop delivers
   * events). `auto`: SQLite's own.
   */
  checkpoints?: 'auto' | 'worker'
  /** Told when a background checkpoint fails (the log then grows until one succeeds). */
  onCheckpointError?: (message: string) => void
}

/** Every area of the Store, on one SQLite database. */
export function openSqliteStore(file: string, options: SqliteOptions = {}): Store {
  const db = new Database(file)
  // It holds webhook secrets: owner only, also when an older version or a person loosened it.
  if (file !== ':memory:')
    for (const f of [file, `${file}-wal`, `${file}-shm`]) if (existsSync(f)) chmodSync(f, 0o600)
  db.pragma('journal_mode = WAL')
  db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`)
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  migrate(db)
  const checkpoints =
    options.checkpoints === 'worker' && file !== ':memory:'
      ? checkpointOffThread(db, file, options.onCheckpointError)
      : null
  const sql = sqliteSql(db)
  // The areas' own closures become the store's methods: no call goes through a wrapper.
  return combine(
    sqliteEventStore(db),
    accessStore(sql),
    decisionStore(sql),
    sessionRecords(sql),
    sqliteSessionLines(db),
    peerStore(sql),
    outboundStore(sql),
    ruleStore(sql),
    routineStore(sql),
    leaseStore(sql),
    bridgeMemoryStore(sql),
    terminalSessionStore(sql),
    receiptStore(sql),
    pushStore(sql),
    usageStore(sql),
    {
      prune: prune(sql),
      close: () => close(db, checkpoints),
    },
  )
}

function migrate(db: Database.Database): void {
  // IMMEDIATE takes the write lock first, so two processes opening a new file migrate once.
  const run = db.transaction(() => {
    const version = db.pragma('user_version', { simple: true }) as number
    for (let v = version; v < migrations.length; v++) {
      db.exec(migrations[v] as string)
      db.pragma(`user_version = ${v + 1}`)
    }
  })
  run.immediate()
}

async function close(db: Database.Database, checkpoints: OffThreadCheckpoints | null): Promise<void> {
  await checkpoints?.stop()
  db.close()
}
