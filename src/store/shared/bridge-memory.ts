// The bridge-memory area, on either store: one row per (platform, kind, key), its value as JSON text.
import { type BridgeMemoryStore, PASSING_MEMORY } from '../bridge-memory.js'
import type { Sql } from './sql.js'

const PASSING = PASSING_MEMORY.map((k) => `'${k}'`).join(', ')

/** Retention (see Store.prune): $1 before, $2 limit; one batch of what a bridge remembered for a while only. */
export const PRUNE_BRIDGE_MEMORY = [
  `DELETE FROM bridge_memory WHERE (platform, kind, key) IN (SELECT platform, kind, key FROM bridge_memory
   WHERE kind IN (${PASSING}) AND at < $1 ORDER BY at LIMIT $2)`,
]

export function bridgeMemoryStore(sql: Sql): BridgeMemoryStore {
  return {
    async remember(platform, kind, key, value, now) {
      await sql.run(
        `INSERT INTO bridge_memory (platform, kind, key, value, count, at) VALUES ($1, $2, $3, $4, 0, $5)
         ON CONFLICT (platform, kind, key) DO UPDATE SET value = excluded.value, count = 0, at = excluded.at`,
        [platform, kind, key, JSON.stringify(value), now],
      )
    },
    async recall(platform, kind, key) {
      const r = await sql.get(
        'SELECT value FROM bridge_memory WHERE platform = $1 AND kind = $2 AND key = $3',
        [platform, kind, key],
      )
      return r ? (JSON.parse(r.value as string) as Record<string, unknown>) : null
    },
    async forget(platform, kind, key) {
      await sql.run('DELETE FROM bridge_memory WHERE platform = $1 AND kind = $2 AND key = $3', [
        platform,
        kind,
        key,
      ])
    },
    async countUp(platform, kind, key, now) {
      // The row's lock orders two hubs' upserts: each gets its own count.
      const r = await sql.get(
        `INSERT INTO bridge_memory (platform, kind, key, value, count, at) VALUES ($1, $2, $3, '{}', 1, $4)
         ON CONFLICT (platform, kind, key) DO UPDATE SET count = bridge_memory.count + 1
         RETURNING count`,
        [platform, kind, key, now],
      )
      return Number(r?.count)
    },
    async trimMemory(platform, kind, keep) {
      await sql.run(
        `DELETE FROM bridge_memory WHERE platform = $1 AND kind = $2 AND key NOT IN
         (SELECT key FROM bridge_memory WHERE platform = $1 AND kind = $2
          ORDER BY at DESC, key COLLATE "BINARY" DESC LIMIT $3)`,
        [platform, kind, keep],
      )
    },
  }
}
