// The decisions area on Postgres: one row per question put to a person; the first answer wins by an
// UPDATE that only matches while the row is still open, whichever hub gives it.
import { newId } from '../../core/ids.js'
import type { Decision, DecisionStore } from '../decisions.js'
import { toDecision } from '../rows.js'
import { announce } from './changes.js'
import type { PostgresDb } from './db.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of decisions no longer open. */
export const PRUNE_DECISIONS = [
  `DELETE FROM decisions WHERE id IN (SELECT id FROM decisions WHERE status != 'open'
     AND coalesce(answered_at, created_at) < $1 LIMIT $2)`,
]

export function postgresDecisionStore(db: PostgresDb, instance: string): DecisionStore {
  return {
    async openDecision(input) {
      const d: Decision = {
        id: newId('dec'),
        kind: input.kind,
        code: input.code,
        owner: input.owner,
        status: 'open',
        request: input.request,
        answer: null,
        answeredBy: null,
        createdAt: Date.now(),
        answeredAt: null,
        expiresAt: input.expiresAt,
      }
      await db.query(
        `INSERT INTO decisions (id, kind, code, owner, status, request, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'open', $5, $6, $7)`,
        [d.id, d.kind, d.code, d.owner, JSON.stringify(d.request), d.createdAt, d.expiresAt],
      )
      return d
    },

    async openDecisionsByCode(kind, code, now) {
      const rows = await db.rows(
        `SELECT * FROM decisions WHERE kind = $1 AND code = $2 AND status = 'open'
         AND (expires_at IS NULL OR expires_at > $3) ORDER BY created_at DESC`,
        [kind, code, now],
      )
      return rows.map(toDecision)
    },

    async answerDecision(id, answer, answeredBy) {
      // A second hub's UPDATE waits on the first's row lock, then re-checks status and matches nothing.
      return db.tx(async (tx) => {
        const { rows } = await tx.query(
          `UPDATE decisions SET status = 'answered', answer = $1, answered_by = $2, answered_at = $3
           WHERE id = $4 AND status = 'open' RETURNING *`,
          [JSON.stringify(answer), answeredBy, Date.now(), id],
        )
        const r = rows[0]
        if (!r) return null
        // Whoever waits for the answer (a session, a channel) may be on another hub.
        await announce(tx, instance, { area: 'decisions', id })
        return toDecision(r)
      })
    },

    async unrelayedAnswers(kind, owner) {
      const rows = await db.rows(
        `SELECT * FROM decisions WHERE kind = $1 AND owner = $2 AND status = 'answered' AND NOT relayed
         ORDER BY answered_at`,
        [kind, owner],
      )
      return rows.map(toDecision)
    },

    async markRelayed(id) {
      await db.query('UPDATE decisions SET relayed = true WHERE id = $1', [id])
    },

    async cancelOpenDecisions(kind, owner) {
      const { rowCount } = await db.query(
        `UPDATE decisions SET status = 'cancelled' WHERE kind = $1 AND owner = $2 AND status = 'open'`,
        [kind, owner],
      )
      return rowCount ?? 0
    },

    async cancelDecisions(ids) {
      await db.query(
        `UPDATE decisions SET status = 'cancelled' WHERE id = ANY($1::text[]) AND status = 'open'`,
        [ids],
      )
    },

    async expireDecisions(now) {
      // One statement: when two hubs expire at once, each decision is returned by one of them only.
      const rows = await db.rows(
        `WITH expired AS (
           UPDATE decisions SET status = 'expired'
           WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= $1 RETURNING *)
         SELECT * FROM expired ORDER BY created_at`,
        [now],
      )
      return rows.map(toDecision)
    },

    async countOpen(kind, now) {
      const r = await db.row(
        `SELECT count(*) AS n FROM decisions WHERE kind = $1 AND status = 'open'
         AND (expires_at IS NULL OR expires_at > $2)`,
        [kind, now],
      )
      return r?.n as number
    },

    async listDecisions(filter) {
      const rows = await db.rows(
        `SELECT * FROM decisions WHERE ($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
         ORDER BY created_at DESC LIMIT 500`,
        [filter.kind ?? null, filter.status ?? null],
      )
      return rows.map(toDecision)
    },

    async getDecision(id) {
      const r = await db.row('SELECT * FROM decisions WHERE id = $1', [id])
      return r ? toDecision(r) : null
    },
  }
}
