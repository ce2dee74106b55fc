// The leases area in SQLite. One hub owns a SQLite home, so it always gets what it asks for; the
// area is here so the hub runs the same code on either store.
import type Database from 'better-sqlite3'
import type { LeaseStore } from '../leases.js'
import { type Row, toLease } from '../rows.js'

export function sqliteLeaseStore(db: Database.Database): LeaseStore {
  const acquire = db.prepare(
    `INSERT INTO leases (name, holder, epoch, expires_at, note) VALUES (@name, @holder, 1, @expires, @note)
     ON CONFLICT (name) DO UPDATE SET
       epoch = CASE WHEN leases.holder = excluded.holder AND leases.expires_at > @now THEN leases.epoch
                    ELSE leases.epoch + 1 END,
       holder = excluded.holder, expires_at = excluded.expires_at, note = excluded.note
     WHERE leases.holder = excluded.holder OR leases.expires_at <= @now
     RETURNING *`,
  )
  const seize = db.prepare(
    `INSERT INTO leases (name, holder, epoch, expires_at) VALUES (@name, @holder, 1, @expires)
     ON CONFLICT (name) DO UPDATE SET epoch = leases.epoch + 1, holder = excluded.holder,
       expires_at = excluded.expires_at, note = NULL
     RETURNING *`,
  )
  return {
    async acquireLease(name, holder, ttlMs, now, note = null) {
      const r = acquire.get({ name, holder, expires: now + ttlMs, now, note }) as Row | undefined
      return r ? toLease(r) : null
    },
    async seizeLease(name, holder, ttlMs, now) {
      return toLease(seize.get({ name, holder, expires: now + ttlMs }) as Row)
    },
    async renewLeases(holder, ttlMs, now) {
      const rows = db
        .prepare('UPDATE leases SET expires_at = ? WHERE holder = ? AND expires_at > ? RETURNING name')
        .all(now + ttlMs, holder, now) as Row[]
      return rows.map((r) => r.name as string)
    },
    async releaseLease(name, holder) {
      db.prepare('UPDATE leases SET expires_at = 0 WHERE name = ? AND holder = ?').run(name, holder)
    },
    async getLease(name) {
      const r = db.prepare('SELECT * FROM leases WHERE name = ?').get(name) as Row | undefined
      return r ? toLease(r) : null
    },
    async listLeases(prefix) {
      const rows = db
        .prepare('SELECT * FROM leases WHERE substr(name, 1, ?) = ? ORDER BY name')
        .all(prefix.length, prefix) as Row[]
      return rows.map(toLease)
    },
  }
}
