// The outbound area, on either store: webhooks events are POSTed to, a log row per delivery attempt,
// and the receipts queued for the webhooks that asked to be told (issue 23).
import type { OutboundStore, QueuedReceipt } from '../outbound.js'
import { toAttempt, toWebhook } from '../rows.js'
import type { Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of the delivery log, one of receipts told. */
export const PRUNE_OUTBOUND_LOG = [
  `DELETE FROM outbound_log WHERE id IN (SELECT id FROM outbound_log WHERE at < $1 ORDER BY id LIMIT $2)`,
  `DELETE FROM outbound_receipts WHERE id IN (SELECT id FROM outbound_receipts
     WHERE next_at IS NULL AND created_at < $1 ORDER BY id LIMIT $2)`,
]

const toQueued = (r: Record<string, unknown>): QueuedReceipt => ({
  id: Number(r.id),
  webhook: r.webhook as string,
  eventId: r.event_id as string,
  topic: r.topic as string,
  subscriber: r.subscriber as string,
  stage: r.stage as QueuedReceipt['stage'],
  at: Number(r.at),
  tries: Number(r.tries),
  reason: (r.reason as string | null) ?? null,
  attempts: Number(r.attempts),
})

export function outboundStore(sql: Sql): OutboundStore {
  return {
    async addOutboundWebhook({ receipts = false, ...input }) {
      const createdAt = Date.now()
      await sql.run(
        'INSERT INTO outbound_webhooks (name, url, secret, max_attempts, backoff_ms, receipts, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [input.name, input.url, input.secret, input.maxAttempts, input.backoffMs, receipts, createdAt],
      )
      return { ...input, receipts, createdAt }
    },

    async listOutboundWebhooks() {
      return (await sql.all('SELECT * FROM outbound_webhooks ORDER BY created_at')).map(toWebhook)
    },

    async removeOutboundWebhook(name) {
      const [, , removed] = await sql.batch([
        ['DELETE FROM outbound_log WHERE webhook = $1', [name]],
        ['DELETE FROM outbound_receipts WHERE webhook = $1', [name]],
        ['DELETE FROM outbound_webhooks WHERE name = $1', [name]],
      ])
      return (removed ?? 0) > 0
    },

    async logOutbound(a) {
      await sql.run(
        'INSERT INTO outbound_log (webhook, kind, event_id, attempt, status, error, at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [a.webhook, a.kind ?? 'event', a.eventId, a.attempt, a.status, a.error, Date.now()],
      )
    },

    async outboundLog(webhook, limit) {
      const rows = await sql.all('SELECT * FROM outbound_log WHERE webhook = $1 ORDER BY id DESC LIMIT $2', [
        webhook,
        limit,
      ])
      return rows.map(toAttempt)
    },

    async queueReceipt(webhooks, n) {
      if (webhooks.length === 0) return 0
      const now = Date.now()
      const queued = await sql.batch(
        webhooks.map((webhook) => [
          `INSERT INTO outbound_receipts (webhook, event_id, topic, subscriber, stage, at, tries, reason, attempts, next_at, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $9)
           ON CONFLICT (webhook, event_id, subscriber, stage) DO NOTHING`,
          [webhook, n.eventId, n.topic, n.subscriber, n.stage, n.at, n.tries, n.reason, now],
        ]),
      )
      return queued.reduce((sum, c) => sum + c, 0)
    },

    async dueReceipts(webhook, now, limit) {
      const rows = await sql.all(
        'SELECT * FROM outbound_receipts WHERE webhook = $1 AND next_at <= $2 ORDER BY id LIMIT $3',
        [webhook, now, limit],
      )
      return rows.map(toQueued)
    },

    async receiptTried(id, retryAt) {
      await sql.run('UPDATE outbound_receipts SET attempts = attempts + 1, next_at = $2 WHERE id = $1', [
        id,
        retryAt,
      ])
    },
  }
}
