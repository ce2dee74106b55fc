// The peers area on Postgres: aliases (one row per alias, the last claim overwrites it), room
// memberships, and dead letters.
import type { PeerStore } from '../peers.js'
import { toDeadLetter } from '../rows.js'
import type { PostgresDb } from './db.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of dead letters. */
export const PRUNE_DEAD_LETTERS = [
  `DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters WHERE created_at < $1 ORDER BY id LIMIT $2)`,
]

// Names are listed in COLLATE "C": SQLite's byte order, whatever the database's locale.
export function postgresPeerStore(db: PostgresDb): PeerStore {
  return {
    async setAlias(alias, name) {
      await db.query(
        'INSERT INTO peer_aliases (alias, name) VALUES ($1, $2) ON CONFLICT (alias) DO UPDATE SET name = excluded.name',
        [alias, name],
      )
    },

    async resolveAlias(alias) {
      const r = await db.row('SELECT name FROM peer_aliases WHERE alias = $1', [alias])
      return r ? (r.name as string) : null
    },

    async aliasesOf(name) {
      return (
        await db.rows('SELECT alias FROM peer_aliases WHERE name = $1 ORDER BY alias COLLATE "C"', [name])
      ).map((r) => r.alias as string)
    },

    async joinRoom(room, member) {
      await db.query(
        'INSERT INTO rooms (room, member, joined_at) VALUES ($1, $2, $3) ON CONFLICT (room, member) DO NOTHING',
        [room, member, Date.now()],
      )
    },

    async leaveRoom(room, member) {
      await db.query('DELETE FROM rooms WHERE room = $1 AND member = $2', [room, member])
    },

    async roomMembers(room) {
      return (
        await db.rows('SELECT member FROM rooms WHERE room = $1 ORDER BY member COLLATE "C"', [room])
      ).map((r) => r.member as string)
    },

    async roomsOf(member) {
      return (
        await db.rows('SELECT room FROM rooms WHERE member = $1 ORDER BY room COLLATE "C"', [member])
      ).map((r) => r.room as string)
    },

    async addDeadLetter(input) {
      const createdAt = Date.now()
      const r = await db.row(
        'INSERT INTO dead_letters (kind, target, payload, reason, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [input.kind, input.target, JSON.stringify(input.payload), input.reason, createdAt],
      )
      return { ...input, id: r?.id as number, createdAt }
    },

    async listDeadLetters(kind) {
      const rows = await db.rows(
        'SELECT * FROM dead_letters WHERE ($1::text IS NULL OR kind = $1) ORDER BY id DESC LIMIT 500',
        [kind ?? null],
      )
      return rows.map(toDeadLetter)
    },
  }
}
