// The outbound area in SQLite: webhooks events are POSTed to, and a log row per delivery attempt.
import type Database from 'better-sqlite3'
import type { OutboundStore } from '../outbound.js'
import { type Row, toAttempt, toWebhook } from '../rows.js'

/** Retention (see Store.prune): one batch of the delivery log. */
export const PRUNE_OUTBOUND_LOG = [
  `DELETE FROM outbound_log WHERE id IN (SELECT id FROM outbound_log WHERE at < @before ORDER BY id LIMIT @limit)`,
]

export function sqliteOutboundStore(db: Database.Database): OutboundStore {
  return {
    async addOutboundWebhook(input) {
      const createdAt = Date.now()
      db.prepare(
        'INSERT INTO outbound_webhooks (name, url, secret, max_attempts, backoff_ms, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(input.name, input.url, input.secret, input.maxAttempts, input.backoffMs, createdAt)
      return { ...input, createdAt }
    },

    async listOutboundWebhooks() {
      return (db.prepare('SELECT * FROM outbound_webhooks ORDER BY created_at').all() as Row[]).map(toWebhook)
    },

    async removeOutboundWebhook(name) {
      return db.transaction(() => {
        db.prepare('DELETE FROM outbound_log WHERE webhook = ?').run(name)
        return db.prepare('DELETE FROM outbound_webhooks WHERE name = ?').run(name).changes > 0
      })()
    },

    async logOutbound(a) {
      db.prepare(
        'INSERT INTO outbound_log (webhook, event_id, attempt, status, error, at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(a.webhook, a.eventId, a.attempt, a.status, a.error, Date.now())
    },

    async outboundLog(webhook, limit) {
      const rows = db
        .prepare('SELECT * FROM outbound_log WHERE webhook = ? ORDER BY id DESC LIMIT ?')
        .all(webhook, limit) as Row[]
      return rows.map(toAttempt)
    },
  }
}
