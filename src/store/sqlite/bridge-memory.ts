// The bridge-memory area in SQLite: one row per (platform, kind, key), its value as JSON.
import type Database from 'better-sqlite3'
import { type BridgeMemoryStore, PASSING_MEMORY } from '../bridge-memory.js'

const PASSING = PASSING_MEMORY.map((k) => `'${k}'`).join(', ')

/** Retention (see Store.prune): one batch of what a bridge remembered for a while only. */
export const PRUNE_BRIDGE_MEMORY = [
  `DELETE FROM bridge_memory WHERE rowid IN (SELECT rowid FROM bridge_memory
   WHERE kind IN (${PASSING}) AND at < @before ORDER BY at LIMIT @limit)`,
]

export function sqliteBridgeMemoryStore(db: Database.Database): BridgeMemoryStore {
  return {
    async remember(platform, kind, key, value, now) {
      db.prepare(
        `INSERT INTO bridge_memory (platform, kind, key, value, count, at) VALUES (?, ?, ?, ?, 0, ?)
         ON CONFLICT (platform, kind, key) DO UPDATE SET value = excluded.value, count = 0, at = excluded.at`,
      ).run(platform, kind, key, JSON.stringify(value), now)
    },
    async recall(platform, kind, key) {
      const r = db
        .prepare('SELECT value FROM bridge_memory WHERE platform = ? AND kind = ? AND key = ?')
        .get(platform, kind, key) as { value: string } | undefined
      return r ? (JSON.parse(r.value) as Record<string, unknown>) : null
    },
    async forget(platform, kind, key) {
      db.prepare('DELETE FROM bridge_memory WHERE platform = ? AND kind = ? AND key = ?').run(
        platform,
        kind,
        key,
      )
    },
    async countUp(platform, kind, key, now) {
      const r = db
        .prepare(
          `INSERT INTO bridge_memory (platform, kind, key, value, count, at) VALUES (?, ?, ?, '{}', 1, ?)
           ON CONFLICT (platform, kind, key) DO UPDATE SET count = count + 1
           RETURNING count`,
        )
        .get(platform, kind, key, now) as { count: number }
      return r.count
    },
    async trimMemory(platform, kind, keep) {
      db.prepare(
        `DELETE FROM bridge_memory WHERE platform = ? AND kind = ? AND key NOT IN
         (SELECT key FROM bridge_memory WHERE platform = ? AND kind = ? ORDER BY at DESC, key DESC LIMIT ?)`,
      ).run(platform, kind, platform, kind, keep)
    },
  }
}
