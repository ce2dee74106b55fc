// The peers area, on either store: aliases (one row per alias, the last claim overwrites it), room
// memberships, and dead letters.
import type { PeerStore } from '../peers.js'
import { toDeadLetter } from '../rows.js'
import type { Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of dead letters. */
export const PRUNE_DEAD_LETTERS = [
  `DELETE FROM dead_letters WHERE id IN (SELECT id FROM dead_letters WHERE created_at < $1 ORDER BY id LIMIT $2)`,
]

export function peerStore(sql: Sql): PeerStore {
  const names = async (text: string, value: string, column: string) =>
    (await sql.all(text, [value])).map((r) => r[column] as string)
  return {
    async setAlias(alias, name) {
      await sql.run(
        'INSERT INTO peer_aliases (alias, name) VALUES ($1, $2) ON CONFLICT (alias) DO UPDATE SET name = excluded.name',
        [alias, name],
      )
    },

    async resolveAlias(alias) {
      const r = await sql.get('SELECT name FROM peer_aliases WHERE alias = $1', [alias])
      return r ? (r.name as string) : null
    },

    async aliasesOf(name) {
      return names(
        'SELECT alias FROM peer_aliases WHERE name = $1 ORDER BY alias COLLATE "BINARY"',
        name,
        'alias',
      )
    },

    async joinRoom(room, member) {
      await sql.run(
        'INSERT INTO rooms (room, member, joined_at) VALUES ($1, $2, $3) ON CONFLICT (room, member) DO NOTHING',
        [room, member, Date.now()],
      )
    },

    async leaveRoom(room, member) {
      await sql.run('DELETE FROM rooms WHERE room = $1 AND member = $2', [room, member])
    },

    async roomMembers(room) {
      return names(
        'SELECT member FROM rooms WHERE room = $1 ORDER BY member COLLATE "BINARY"',
        room,
        'member',
      )
    },

    async roomsOf(member) {
      return names('SELECT room FROM rooms WHERE member = $1 ORDER BY room COLLATE "BINARY"', member, 'room')
    },

    async addDeadLetter(input) {
      const createdAt = Date.now()
      const r = await sql.get(
        'INSERT INTO dead_letters (kind, target, payload, reason, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
        [input.kind, input.target, JSON.stringify(input.payload), input.reason, createdAt],
      )
      return { ...input, id: r?.id as number, createdAt }
    },

    async listDeadLetters(kind) {
      const rows = await sql.all(
        'SELECT * FROM dead_letters WHERE (CAST($1 AS TEXT) IS NULL OR kind = $1) ORDER BY id DESC LIMIT 500',
        [kind ?? null],
      )
      return rows.map(toDeadLetter)
    },
  }
}
