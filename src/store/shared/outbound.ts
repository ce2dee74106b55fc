// The outbound area, on either store: webhooks events are POSTed to, and a log row per delivery attempt.
import type { OutboundStore } from '../outbound.js'
import { toAttempt, toWebhook } from '../rows.js'
import type { Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of the delivery log. */
export const PRUNE_OUTBOUND_LOG = [
  `DELETE FROM outbound_log WHERE id IN (SELECT id FROM outbound_log WHERE at < $1 ORDER BY id LIMIT $2)`,
]

export function outboundStore(sql: Sql): OutboundStore {
  return {
    async addOutboundWebhook(input) {
      const createdAt = Date.now()
      await sql.run(
        'INSERT INTO outbound_webhooks (name, url, secret, max_attempts, backoff_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [input.name, input.url, input.secret, input.maxAttempts, input.backoffMs, createdAt],
      )
      return { ...input, createdAt }
    },

    async listOutboundWebhooks() {
      return (await sql.all('SELECT * FROM outbound_webhooks ORDER BY created_at')).map(toWebhook)
    },

    async removeOutboundWebhook(name) {
      const [, removed] = await sql.batch([
        ['DELETE FROM outbound_log WHERE webhook = $1', [name]],
        ['DELETE FROM outbound_webhooks WHERE name = $1', [name]],
      ])
      return (removed ?? 0) > 0
    },

    async logOutbound(a) {
      await sql.run(
        'INSERT INTO outbound_log (webhook, event_id, attempt, status, error, at) VALUES ($1, $2, $3, $4, $5, $6)',
        [a.webhook, a.eventId, a.attempt, a.status, a.error, Date.now()],
      )
    },

    async outboundLog(webhook, limit) {
      const rows = await sql.all('SELECT * FROM outbound_log WHERE webhook = $1 ORDER BY id DESC LIMIT $2', [
        webhook,
        limit,
      ])
      return rows.map(toAttempt)
    },
  }
}
