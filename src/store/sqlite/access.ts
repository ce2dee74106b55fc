// The access area in SQLite: webhook sources, chat senders (found by their hashed token), their chats
// and their outbox of replies.
import type Database from 'better-sqlite3'
import { newId } from '../../core/ids.js'
import type { AccessStore, Sender, Source } from '../access.js'
import { type Row, toOutbox, toSender, toSource } from '../rows.js'

/** Retention (see Store.prune): one batch of replies. */
export const PRUNE_OUTBOX = [
  `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE created_at < @before ORDER BY id LIMIT @limit)`,
]

export function sqliteAccessStore(db: Database.Database): AccessStore {
  // Looked up on the webhook path, so prepared once.
  const sourceByName = db.prepare('SELECT * FROM sources WHERE name = ?')

  function senderWhere(clause: string, value: string): Sender | null {
    const r = db.prepare(`SELECT * FROM senders WHERE ${clause} = ?`).get(value) as Row | undefined
    return r ? toSender(r) : null
  }

  return {
    // --- sources ---------------------------------------------------------------
    async addSource(s) {
      const source: Source = {
        ...s,
        preset: s.preset ?? 'generic',
        fieldMap: s.fieldMap ?? null,
        createdAt: Date.now(),
      }
      db.prepare(
        `INSERT INTO sources (name, topic, secret, delivery_header, preset, field_map, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        source.name,
        source.topic,
        source.secret,
        source.deliveryHeader,
        source.preset,
        source.fieldMap ? JSON.stringify(source.fieldMap) : null,
        source.createdAt,
      )
      return source
    },

    async getSource(name) {
      const r = sourceByName.get(name) as Row | undefined
      return r ? toSource(r) : null
    },

    async listSources() {
      return (db.prepare('SELECT * FROM sources ORDER BY name').all() as Row[]).map(toSource)
    },

    async removeSource(name) {
      return db.prepare('DELETE FROM sources WHERE name = ?').run(name).changes > 0
    },

    async setSourceSecret(name, secret) {
      return db.prepare('UPDATE sources SET secret = ? WHERE name = ?').run(secret, name).changes > 0
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
      db.prepare(
        `INSERT INTO senders (id, name, token_hash, status, operator, display_name, kind, expires_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        sender.id,
        sender.name,
        input.tokenHash,
        sender.status,
        sender.operator ? 1 : 0,
        sender.displayName,
        sender.kind,
        sender.expiresAt,
        sender.createdAt,
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
      return (db.prepare('SELECT * FROM senders ORDER BY created_at').all() as Row[]).map(toSender)
    },

    async updateSender(id, change) {
      if (change.status) db.prepare('UPDATE senders SET status = ? WHERE id = ?').run(change.status, id)
      if (change.operator !== undefined)
        db.prepare('UPDATE senders SET operator = ? WHERE id = ?').run(change.operator ? 1 : 0, id)
      if (change.name) db.prepare('UPDATE senders SET name = ? WHERE id = ?').run(change.name, id)
      if (change.displayName !== undefined)
        db.prepare('UPDATE senders SET display_name = ? WHERE id = ?').run(change.displayName, id)
    },

    async removeSender(id) {
      return db.prepare('DELETE FROM senders WHERE id = ?').run(id).changes > 0
    },

    async dropExpiredSenders(now) {
      const rows = db
        .prepare('DELETE FROM senders WHERE expires_at IS NOT NULL AND expires_at <= ? RETURNING *')
        .all(now) as Row[]
      return rows.map(toSender)
    },

    async countOperators() {
      const r = db
        .prepare(`SELECT COUNT(*) AS n FROM senders WHERE operator = 1 AND status = 'allowed'`)
        .get() as { n: number }
      return r.n
    },

    // --- chats and outbox ------------------------------------------------------
    async chatFor(source, senderId) {
      const r = db.prepare('SELECT id FROM chats WHERE source = ? AND sender_id = ?').get(source, senderId) as
        | Row
        | undefined
      if (r) return { id: r.id as string, source, senderId }
      const id = newId('chat')
      db.prepare('INSERT INTO chats (id, source, sender_id, created_at) VALUES (?, ?, ?, ?)').run(
        id,
        source,
        senderId,
        Date.now(),
      )
      return { id, source, senderId }
    },

    async getChat(id) {
      const r = db.prepare('SELECT * FROM chats WHERE id = ?').get(id) as Row | undefined
      return r
        ? { id: r.id as string, source: r.source as string, senderId: (r.sender_id as string | null) ?? null }
        : null
    },

    async addOutbox(senderId, kind, body) {
      const createdAt = Date.now()
      const info = db
        .prepare('INSERT INTO outbox (sender_id, kind, body, created_at) VALUES (?, ?, ?, ?)')
        .run(senderId, kind, JSON.stringify(body), createdAt)
      return { id: Number(info.lastInsertRowid), senderId, kind, body, receipt: null, createdAt }
    },

    async outboxFor(senderId, afterId) {
      const rows =
        afterId === null
          ? db.prepare('SELECT * FROM outbox WHERE sender_id = ? AND streamed = 0 ORDER BY id').all(senderId)
          : db
              .prepare('SELECT * FROM outbox WHERE sender_id = ? AND id > ? ORDER BY id')
              .all(senderId, afterId)
      return (rows as Row[]).map(toOutbox)
    },

    async lastOutboxId(senderId) {
      const r = db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM outbox WHERE sender_id = ?').get(senderId)
      return (r as { id: number }).id
    },

    async markStreamed(ids) {
      const mark = db.prepare('UPDATE outbox SET streamed = 1 WHERE id = ?')
      db.transaction(() => {
        for (const id of ids) mark.run(id)
      })()
    },

    async markShown(id, receipt) {
      db.prepare('UPDATE outbox SET streamed = 1, receipt = ? WHERE id = ?').run(JSON.stringify(receipt), id)
    },

    async outboxAbout(senderId, ref) {
      const rows = db
        .prepare("SELECT * FROM outbox WHERE sender_id = ? AND json_extract(body, '$.id') = ? ORDER BY id")
        .all(senderId, ref) as Row[]
      return rows.map(toOutbox)
    },
  }
}
