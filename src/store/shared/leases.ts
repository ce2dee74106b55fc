// The leases area, on either store: one statement each, so two hubs asking at once get one answer
// each. One hub owns a SQLite home, so there it always gets what it asks for; the area is there so
// the hub runs the same code on either store.
import type { LeaseStore } from '../leases.js'
import { type Row, toLease } from '../rows.js'
import type { Sql } from './sql.js'

/**
 * `renewals`: where renewals run, when not on `sql`. On Postgres they have a connection of their own:
 * a hub proves its leases by them, and behind its own deliveries in a busy pool's queue they came
 * too late, so a hub whose database answered fenced itself (see design notes, "Fencing").
 */
export function leaseStore(sql: Sql, renewals: Sql = sql): LeaseStore {
  return {
    async acquireLease(name, holder, ttlMs, now, note = null) {
      // The row's lock orders two hubs' upserts: the second sees the first's holder and gets nothing.
      const r = await sql.get(
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
      // The hub that held it stops at once rather than at its next renewal.
      const r = await sql.announced(
        `INSERT INTO leases (name, holder, epoch, expires_at) VALUES ($1, $2, 1, $3)
         ON CONFLICT (name) DO UPDATE SET epoch = leases.epoch + 1, holder = excluded.holder,
           expires_at = excluded.expires_at, note = NULL
         RETURNING *`,
        [name, holder, now + ttlMs],
        () => ({ area: 'lease', name, holder }),
      )
      return toLease(r as Row)
    },
    async renewLeases(holder, ttlMs, now) {
      const rows = await renewals.all(
        'UPDATE leases SET expires_at = $1 WHERE holder = $2 AND expires_at > $3 RETURNING name',
        [now + ttlMs, holder, now],
      )
      return rows.map((r) => r.name as string)
    },
    async releaseLease(name, holder) {
      await sql.run('UPDATE leases SET expires_at = 0 WHERE name = $1 AND holder = $2', [name, holder])
    },
    async getLease(name) {
      const r = await sql.get('SELECT * FROM leases WHERE name = $1', [name])
      return r ? toLease(r) : null
    },
    async listLeases(prefix) {
      const rows = await sql.all(
        'SELECT * FROM leases WHERE substr(name, 1, $1) = $2 ORDER BY name COLLATE "BINARY"',
        [prefix.length, prefix],
      )
      return rows.map(toLease)
    },
  }
}
