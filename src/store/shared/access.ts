// The access area, on either store: webhook sources, chat senders (found by their hashed token), their
// chats and their outbox of replies.
import { newId } from '../../core/ids.js'
import type { AccessStore, Sender, Source } from '../access.js'
import { type Row, toOutbox, toSender, toSource } from '../rows.js'
import type { OtherChange } from '../store.js'
import { forEachSlice, type Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of replies. */
export const PRUNE_OUTBOX = [
  `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE created_at < $1 ORDER BY id LIMIT $2)`,
]

/** Items whose body's "id" is `$2` as JSON: a string id equal to it, never the number 12 for '12'. */
const OUTBOX_ABOUT = {
  sqlite: `SELECT * FROM outbox WHERE sender_id = $1 AND json_extract(body, '$.id') = $2 ORDER BY id`,
  postgres: `SELECT * FROM outbox WHERE sender_id = $1 AND body::jsonb -> 'id' = to_jsonb($2::text) ORDER BY id`,
}

const sourceChange = (r: Row): OtherChange => ({ area: 'sources', name: r.name as string })

export function accessStore(sql: Sql): AccessStore {
  async function senderWhere(column: 'token_hash' | 'name' | 'id', value: string): Promise<Sender | null> {
    const r = await sql.get(`SELECT * FROM senders WHERE ${column} = $1`, [value])
    return r ? toSender(r) : null
  }

  return {
    // --- sources ---------------------------------------------------------------
    async addSource(s) {
      const source: Source = {
        ...s,
        preset: s.preset ?? 'generic',
        fieldMap: s.fieldMap ?? null,
        about: s.about ?? [],
        createdAt: Date.now(),
      }
      await sql.run(
        `INSERT INTO sources (name, topic, secret, delivery_header, preset, field_map, created_at, about)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          source.name,
          source.topic,
          source.secret,
          source.deliveryHeader,
          source.preset,
          source.fieldMap ? JSON.stringify(source.fieldMap) : null,
          source.createdAt,
          JSON.stringify(source.about),
        ],
      )
      return source
    },

    async getSource(name) {
      const r = await sql.get('SELECT * FROM sources WHERE name = $1', [name])
      return r ? toSource(r) : null
    },

    async listSources() {
      return (await sql.all('SELECT * FROM sources ORDER BY name COLLATE "BINARY"')).map(toSource)
    },

    // Other hubs on the database hear of a changed or removed source, and drop what they cached of it.
    async removeSource(name) {
      return (
        (await sql.announced('DELETE FROM sources WHERE name = $1 RETURNING name', [name], sourceChange)) !==
        null
      )
    },

    async setSourceSecret(name, secret) {
      const r = await sql.announced(
        'UPDATE sources SET secret = $1 WHERE name = $2 RETURNING name',
        [secret, name],
        sourceChange,
      )
      return r !== null
    },

    async setSourceAbout(name, about) {
      const r = await sql.announced(
        'UPDATE sources SET about = $1 WHERE name = $2 RETURNING name',
        [JSON.stringify(about), name],
        sourceChange,
      )
      return r !== null
    },

    // --- senders ---------------------------------------------------------------
    async addSender(input) {
      const sender: Sender = {
        id: newId('snd'),
        name: input.name,
        status: input.status,
        operator: input.operator,
        displayName: input.displayName ?? null,
        kind: input.kind ?? 'token',
        expiresAt: input.expiresAt ?? null,
        createdAt: Date.now(),
      }
      await sql.run(
        `INSERT INTO senders (id, name, token_hash, status, operator, display_name, kind, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          sender.id,
          sender.name,
          input.tokenHash,
          sender.status,
          sender.operator,
          sender.displayName,
          sender.kind,
          sender.expiresAt,
          sender.createdAt,
        ],
      )
      return sender
    },

    async senderByToken(tokenHash) {
      return senderWhere('token_hash', tokenHash)
    },

    async senderByName(name) {
      return senderWhere('name', name)
    },

    async senderById(id) {
      return senderWhere('id', id)
    },

    async listSenders() {
      return (await sql.all('SELECT * FROM senders ORDER BY created_at')).map(toSender)
    },

    async updateSender(id, change) {
      // One statement rather than one per field: another hub never sees half a change.
      const columns: Record<string, unknown> = {}
      if (change.status) columns.status = change.status
      if (change.operator !== undefined) columns.operator = change.operator
      if (change.name) columns.name = change.name
      if (change.displayName !== undefined) columns.display_name = change.displayName
      const keys = Object.keys(columns)
      if (keys.length === 0) return
      const set = keys.map((k, i) => `${k} = $${i + 2}`).join(', ')
      await sql.run(`UPDATE senders SET ${set} WHERE id = $1`, [id, ...Object.values(columns)])
    },

    async removeSender(id) {
      return (await sql.run('DELETE FROM senders WHERE id = $1', [id])) > 0
    },

    async dropExpiredSenders(now) {
      const rows = await sql.all(
        'DELETE FROM senders WHERE expires_at IS NOT NULL AND expires_at <= $1 RETURNING *',
        [now],
      )
      return rows.map(toSender)
    },

    async countOperators() {
      const r = await sql.get(`SELECT count(*) AS n FROM senders WHERE operator AND status = 'allowed'`)
      return Number(r?.n)
    },

    // --- chats and outbox ------------------------------------------------------
    async chatFor(source, senderId) {
      // Two hubs may meet a new sender at once: the unique (source, sender_id) lets one insert win,
      // and the other reads the winner's row (a new statement, so it sees that commit).
      const inserted = await sql.get(
        `INSERT INTO chats (id, source, sender_id, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (source, sender_id) DO NOTHING RETURNING id`,
        [newId('chat'), source, senderId, Date.now()],
      )
      const r =
        inserted ??
        (await sql.get('SELECT id FROM chats WHERE source = $1 AND sender_id = $2', [source, senderId]))
      return { id: r?.id as string, source, senderId }
    },

    async getChat(id) {
      const r = await sql.get('SELECT * FROM chats WHERE id = $1', [id])
      return r
        ? { id: r.id as string, source: r.source as string, senderId: (r.sender_id as string | null) ?? null }
        : null
    },

    async addOutbox(senderId, message) {
      const createdAt = Date.now()
      // The sender's stream, or the bridge that shows its items, may be on another hub.
      const r = await sql.announced(
        'INSERT INTO outbox (sender_id, kind, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [senderId, message.kind, JSON.stringify(message.body), createdAt],
        (row) => ({ area: 'outbox', senderId, itemId: row.id as number }),
      )
      const id = r?.id as number
      return { ...message, id, senderId, receipt: null, createdAt }
    },

    async outboxFor(senderId, afterId, kind) {
      const params: unknown[] = [senderId]
      const which = afterId === null ? 'NOT streamed' : `id > $${params.push(afterId)}`
      const ofKind = kind ? ` AND kind = $${params.push(kind)}` : ''
      const rows = await sql.all(
        `SELECT * FROM outbox WHERE sender_id = $1 AND ${which}${ofKind} ORDER BY id`,
        params,
      )
      return rows.map(toOutbox)
    },

    async outboxItem(senderId, id) {
      const r = await sql.get('SELECT * FROM outbox WHERE sender_id = $1 AND id = $2', [senderId, id])
      return r ? toOutbox(r) : null
    },

    async lastOutboxId(senderId) {
      const r = await sql.get('SELECT COALESCE(MAX(id), 0) AS id FROM outbox WHERE sender_id = $1', [
        senderId,
      ])
      return Number(r?.id ?? 0)
    },

    async markStreamed(ids) {
      await forEachSlice(sql, ids, (list) => `UPDATE outbox SET streamed = true WHERE id IN (${list})`)
    },

    async markShown(id, receipt) {
      await sql.run('UPDATE outbox SET streamed = true, receipt = $1 WHERE id = $2', [
        JSON.stringify(receipt),
        id,
      ])
    },

    async outboxAbout(senderId, ref) {
      return (await sql.all(OUTBOX_ABOUT[sql.dialect], [senderId, ref])).map(toOutbox)
    },
  }
}
