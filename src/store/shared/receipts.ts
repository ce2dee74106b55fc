// The receipts area, on either store: one row per (event, subscriber) once the subscriber reports.
import type { DeliveryReceipt, DeliveryState } from '../../core/receipts.js'
import type { EventFilter, ReceiptStore } from '../receipts.js'
import { toEvent } from '../rows.js'
import type { Sql } from './sql.js'

const rank = (column: string) =>
  `CASE ${column} WHEN 'stored' THEN 0 WHEN 'written' THEN 1 WHEN 'queued' THEN 2 WHEN 'unconfirmed' THEN 3 ELSE 4 END`

/** Retention (see Store.prune): $1 before, $2 limit; receipts go with the events they speak of. */
export const PRUNE_RECEIPTS = [
  `DELETE FROM receipts WHERE (event_id, subscriber) IN (SELECT event_id, subscriber FROM receipts
   WHERE updated_at < $1 ORDER BY updated_at LIMIT $2)`,
]

const UPSERT = `INSERT INTO receipts (event_id, subscriber, state, written_at, in_context_at, tries, reason, hook_taken, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8)
  ON CONFLICT (event_id, subscriber) DO UPDATE SET
    state = CASE WHEN ${rank('excluded.state')} >= ${rank('receipts.state')} THEN excluded.state ELSE receipts.state END,
    written_at = coalesce(receipts.written_at, excluded.written_at),
    in_context_at = coalesce(receipts.in_context_at, excluded.in_context_at),
    tries = CASE WHEN excluded.tries > receipts.tries THEN excluded.tries ELSE receipts.tries END,
    reason = CASE WHEN excluded.reason IS NULL THEN receipts.reason ELSE excluded.reason END,
    updated_at = excluded.updated_at`

/**
 * An acknowledged delivery is written, unless its subscriber reported more ($1 subscriber, $2 at; the
 * events are chosen by `seqs`, a condition on `seq`). Run in the ack's own transaction (EventStore.ack).
 */
export const writtenOnAck = (seqs: string) =>
  `INSERT INTO receipts (event_id, subscriber, state, written_at, in_context_at, tries, reason, hook_taken, updated_at)
   SELECT id, $1, 'written', $2, NULL, 1, NULL, false, $2 FROM events WHERE ${seqs}
   ON CONFLICT (event_id, subscriber) DO UPDATE SET
     written_at = coalesce(receipts.written_at, excluded.written_at),
     state = CASE WHEN receipts.state = 'stored' THEN 'written' ELSE receipts.state END`

const RECEIPTS = `SELECT r.subscriber, r.state, e.created_at AS stored, r.written_at, r.in_context_at, r.tries, r.reason
  FROM receipts r JOIN events e ON e.id = r.event_id WHERE r.event_id = $1
  UNION ALL
  SELECT d.subscriber, 'stored', e.created_at, NULL, NULL, 0, NULL
  FROM deliveries d JOIN events e ON e.seq = d.seq
  WHERE e.id = $1 AND d.subscriber <> ''
    AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.event_id = e.id AND r.subscriber = d.subscriber)
  ORDER BY 1`

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))

/**
 * The conditions of a listing of events (ReceiptStore.findEvents), on `e`, their parameters numbered
 * from $1. A delivery is a receipt row, or a pending one that has none yet (`stored`); a parked event
 * has neither (its parked row is subscriber '').
 */
function eventConditions(filter: EventFilter): { where: string[]; params: unknown[] } {
  const where: string[] = []
  const params: unknown[] = []
  const param = (value: unknown) => {
    params.push(value)
    return `$${params.length}`
  }
  if (filter.text)
    // LIKE with the text's own % and _ taken literally; lower() on both sides: any case, on both databases.
    where.push(
      `lower(e.content) LIKE ${param(`%${filter.text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} ESCAPE '\\'`,
    )
  if (filter.source) where.push(`e.source = ${param(filter.source)}`)
  if (filter.topic) where.push(`e.topic = ${param(filter.topic)}`)
  if (filter.beforeSeq !== undefined) where.push(`e.seq < ${param(filter.beforeSeq)}`)
  const { subscriber, state } = filter
  const who = (column: string) => (subscriber ? ` AND ${column} = ${param(subscriber)}` : '')
  const reported = (only = '') =>
    `EXISTS (SELECT 1 FROM receipts r WHERE r.event_id = e.id${who('r.subscriber')}${only})`
  const pending = () =>
    `EXISTS (SELECT 1 FROM deliveries d WHERE d.seq = e.seq AND d.subscriber <> ''${who('d.subscriber')}
       AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.event_id = e.id AND r.subscriber = d.subscriber))`
  if (state === 'parked') where.push(`NOT ${reported()} AND NOT ${pending()}`)
  else if (state === 'stored') where.push(`(${reported(" AND r.state = 'stored'")} OR ${pending()})`)
  else if (state) where.push(reported(` AND r.state = ${param(state)}`))
  else if (subscriber) where.push(`(${reported()} OR ${pending()})`)
  return { where, params }
}

export function receiptStore(sql: Sql): ReceiptStore {
  return {
    async recordReceipt({ eventId, subscriber, state, at, tries, reason }) {
      await sql.run(UPSERT, [
        eventId,
        subscriber,
        state,
        at,
        state === 'in_context' ? at : null,
        tries,
        reason ?? null,
        at,
      ])
    },

    async eventById(id) {
      const row = await sql.get('SELECT * FROM events WHERE id = $1 ORDER BY seq DESC LIMIT 1', [id])
      return row ? toEvent(row) : null
    },

    async findEvents(filter) {
      const { where, params } = eventConditions(filter)
      const rows = await sql.all(
        `SELECT e.* FROM events e ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY e.seq DESC LIMIT $${params.length + 1}`,
        [...params, filter.limit],
      )
      return rows.map(toEvent)
    },

    async eventReceipts(eventId) {
      const rows = await sql.all(RECEIPTS, [eventId])
      return rows.map(
        (r): DeliveryReceipt => ({
          subscriber: r.subscriber as string,
          state: r.state as DeliveryState,
          stored: num(r.stored),
          written: num(r.written_at),
          inContext: num(r.in_context_at),
          tries: Number(r.tries),
          reason: (r.reason as string | null) ?? null,
        }),
      )
    },

    async takeUnconfirmed(subscriber, limit, at) {
      const rows = await sql.all(
        `UPDATE receipts SET hook_taken = true, updated_at = $3
         WHERE subscriber = $1 AND state = 'unconfirmed' AND NOT hook_taken
           AND event_id IN (SELECT event_id FROM receipts WHERE subscriber = $1 AND state = 'unconfirmed'
             AND NOT hook_taken ORDER BY updated_at LIMIT $2)
         RETURNING event_id`,
        [subscriber, limit, at],
      )
      if (rows.length === 0) return []
      const ids = rows.map((r) => r.event_id as string)
      const events = await sql.all(
        `SELECT * FROM events WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')}) ORDER BY seq`,
        ids,
      )
      return events.map(toEvent)
    },

    async handBack(subscriber, events, reason, at) {
      if (events.length === 0) return
      const list = (from: number) => events.map((_, i) => `$${i + from}`).join(', ')
      const ids = events.map((e) => e.id)
      await sql.batch([
        [
          `UPDATE receipts SET hook_taken = false, updated_at = $2
           WHERE subscriber = $1 AND state = 'unconfirmed' AND event_id IN (${list(3)})`,
          [subscriber, at, ...ids],
        ],
        [
          `INSERT INTO deliveries (subscriber, seq)
           SELECT $1, e.seq FROM events e WHERE e.id IN (${list(2)})
             AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.event_id = e.id AND r.subscriber = $1
               AND r.state <> 'written')
           ON CONFLICT DO NOTHING`,
          [subscriber, ...ids],
        ],
        [
          `UPDATE receipts SET state = 'stored', written_at = NULL, reason = $2, updated_at = $3
           WHERE subscriber = $1 AND state = 'written' AND event_id IN (${list(4)})`,
          [subscriber, reason, at, ...ids],
        ],
      ])
    },
  }
}
