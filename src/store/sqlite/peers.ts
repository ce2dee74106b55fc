// The peers area in SQLite: aliases (one row per alias, the last claim overwrites it), room
// memberships, and dead letters.
import type Database from 'better-sqlite3'
import type { PeerStore } from '../peers.js'
import { type Row, toDeadLetter } from '../rows.js'

/** Retention (see Store.prune): one batch of dead letters. */
export const PRUNE_DEAD_LETTERS = [
  `DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters WHERE created_at < @before ORDER BY id LIMIT @limit)`,
]

export function sqlitePeerStore(db: Database.Database): PeerStore {
  return {
    async setAlias(alias, name) {
      db.prepare(
        'INSERT INTO peer_aliases (alias, name) VALUES (?, ?) ON CONFLICT (alias) DO UPDATE SET name = excluded.name',
      ).run(alias, name)
    },

    async resolveAlias(alias) {
      const r = db.prepare('SELECT name FROM peer_aliases WHERE alias = ?').get(alias) as Row | undefined
      return r ? (r.name as string) : null
    },

    async aliasesOf(name) {
      return (
        db.prepare('SELECT alias FROM peer_aliases WHERE name = ? ORDER BY alias').all(name) as Row[]
      ).map((r) => r.alias as string)
    },

    async joinRoom(room, member) {
      db.prepare('INSERT OR IGNORE INTO rooms (room, member, joined_at) VALUES (?, ?, ?)').run(
        room,
        member,
        Date.now(),
      )
    },

    async leaveRoom(room, member) {
      db.prepare('DELETE FROM rooms WHERE room = ? AND member = ?').run(room, member)
    },

    async roomMembers(room) {
      return (db.prepare('SELECT member FROM rooms WHERE room = ? ORDER BY member').all(room) as Row[]).map(
        (r) => r.member as string,
      )
    },

    async roomsOf(member) {
      return (db.prepare('SELECT room FROM rooms WHERE member = ? ORDER BY room').all(member) as Row[]).map(
        (r) => r.room as string,
      )
    },

    async addDeadLetter(input) {
      const createdAt = Date.now()
      const info = db
        .prepare(
          'INSERT INTO dead_letters (kind, target, payload, reason, created_at) VALUES (?, ?, ?, ?, ?)',
        )
        .run(input.kind, input.target, JSON.stringify(input.payload), input.reason, createdAt)
      return { ...input, id: Number(info.lastInsertRowid), createdAt }
    },

    async listDeadLetters(kind) {
      const rows = db
        .prepare(
          'SELECT * FROM dead_letters WHERE (@kind IS NULL OR kind = @kind) ORDER BY id DESC LIMIT 500',
        )
        .all({ kind: kind ?? null }) as Row[]
      return rows.map(toDeadLetter)
    },
  }
}
