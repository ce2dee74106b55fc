// The leases area on Postgres: one statement each, so two hubs asking at once get one answer each.
import type { LeaseStore } from '../leases.js'
import { type Row, toLease } from '../rows.js'
import { announce } from './changes.js'
import type { PostgresDb } from './db.js'

export function postgresLeaseStore(db: PostgresDb, instance: string): LeaseStore {
  return {
    async acquireLease(name, holder, ttlMs, now, note = null) {
      // The row's lock orders two hubs' upserts: the second sees the first's holder and gets nothing.
      const r = await db.row(
        `INSERT INTO leases (name, holder, epoch, expires_at, note) VALUES ($1, $2, 1, $3, $5)
         ON CONFLICT (name) DO UPDATE SET
           epoch = CASE WHEN leases.holder = excluded.holder AND leases.expires_at > $4 THEN leases.epoch
                        ELSE leases.epoch + 1 END,
           holder = excluded.holder, expires_at = excluded.expires_at, note = excluded.note
         WHERE leases.holder = excluded.holder OR leases.expires_at <= $4
         RETURNING *`,
        [name, holder, now + ttlMs, now, note],
      )
      return r ? toLease(r) : null
    },
    async seizeLease(name, holder, ttlMs, now) {
      return db.tx(async (tx) => {
        const { rows } = await tx.query(
          `INSERT INTO leases (name, holder, epoch, expires_at) VALUES ($1, $2, 1, $3)
           ON CONFLICT (name) DO UPDATE SET epoch = leases.epoch + 1, holder = excluded.holder,
             expires_at = excluded.expires_at, note = NULL
           RETURNING *`,
          [name, holder, now + ttlMs],
        )
        // The hub that held it stops at once rather than at its next renewal.
        await announce(tx, instance, { area: 'lease', name, holder })
        return toLease(rows[0] as Row)
      })
    },
    async renewLeases(holder, ttlMs, now) {
      const rows = await db.rows(
        'UPDATE leases SET expires_at = $1 WHERE holder = $2 AND expires_at > $3 RETURNING name',
        [now + ttlMs, holder, now],
      )
      return rows.map((r) => r.name as string)
    },
    async releaseLease(name, holder) {
      await db.query('UPDATE leases SET expires_at = 0 WHERE name = $1 AND holder = $2', [name, holder])
    },
    async getLease(name) {
      const r = await db.row('SELECT * FROM leases WHERE name = $1', [name])
      return r ? toLease(r) : null
    },
    async listLeases(prefix) {
      const rows = await db.rows('SELECT * FROM leases WHERE left(name, $1) = $2 ORDER BY name COLLATE "C"', [
        prefix.length,
        prefix,
      ])
      return rows.map(toLease)
    },
  }
}
