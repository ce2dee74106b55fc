// The decisions area, on either store: one row per question put to a person; the first answer wins by
// an UPDATE that only matches while the row is still open, whichever hub gives it.
import { newId } from '../../core/ids.js'
import type { Decision, DecisionStatus, DecisionStore } from '../decisions.js'
import { toDecision } from '../rows.js'
import { forEachSlice, type Sql } from './sql.js'

/** Each status as written in SQL: a closed list, so that no caller's string reaches the statement. */
const STATUS_SQL: Record<DecisionStatus, string> = {
  open: 'open',
  answered: 'answered',
  expired: 'expired',
  cancelled: 'cancelled',
}

/** Retention (see Store.prune): $1 before, $2 limit; one batch of decisions no longer open. */
export const PRUNE_DECISIONS = [
  `DELETE FROM decisions WHERE id IN (SELECT id FROM decisions WHERE status != 'open'
     AND coalesce(answered_at, created_at) < $1 LIMIT $2)`,
]

export function decisionStore(sql: Sql): DecisionStore {
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
      await sql.run(
        `INSERT INTO decisions (id, kind, code, owner, status, request, created_at, expires_at)
         VALUES ($1, $2, $3, $4, 'open', $5, $6, $7)`,
        [d.id, d.kind, d.code, d.owner, JSON.stringify(d.request), d.createdAt, d.expiresAt],
      )
      return d
    },

    async openDecisionsByCode(kind, code, now) {
      const rows = await sql.all(
        `SELECT * FROM decisions WHERE kind = $1 AND code = $2 AND status = 'open'
         AND (expires_at IS NULL OR expires_at > $3) ORDER BY created_at DESC`,
        [kind, code, now],
      )
      return rows.map(toDecision)
    },

    async answerDecision(id, answer, answeredBy) {
      // A second hub's UPDATE waits on the first's row lock, then re-checks status and matches nothing.
      // Whoever waits for the answer (a session, a channel) may be on another hub.
      const r = await sql.announced(
        `UPDATE decisions SET status = 'answered', answer = $1, answered_by = $2, answered_at = $3
         WHERE id = $4 AND status = 'open' RETURNING *`,
        [JSON.stringify(answer), answeredBy, Date.now(), id],
        () => ({ area: 'decisions', id }),
      )
      return r ? toDecision(r) : null
    },

    async unrelayedAnswers(kind, owner) {
      const rows = await sql.all(
        `SELECT * FROM decisions WHERE kind = $1 AND owner = $2 AND status = 'answered' AND NOT relayed
         ORDER BY answered_at`,
        [kind, owner],
      )
      return rows.map(toDecision)
    },

    async markRelayed(id) {
      return (await sql.run('UPDATE decisions SET relayed = true WHERE id = $1 AND NOT relayed', [id])) === 1
    },

    async cancelOpenDecisions(kind, owner) {
      return sql.run(
        `UPDATE decisions SET status = 'cancelled' WHERE kind = $1 AND owner = $2 AND status = 'open'`,
        [kind, owner],
      )
    },

    async cancelDecisions(ids) {
      await forEachSlice(
        sql,
        ids,
        (list) => `UPDATE decisions SET status = 'cancelled' WHERE id IN (${list}) AND status = 'open'`,
      )
    },

    async expireDecisions(now, kind) {
      // One statement: when two hubs expire at once, each decision is returned by one of them only.
      const rows = await sql.all(
        `UPDATE decisions SET status = 'expired'
         WHERE status = 'open' AND kind = $2 AND expires_at IS NOT NULL AND expires_at <= $1 RETURNING *`,
        [now, kind],
      )
      return rows.map(toDecision).sort((a, b) => a.createdAt - b.createdAt)
    },

    async countOpen(kind, now) {
      const r = await sql.get(
        `SELECT count(*) AS n FROM decisions WHERE kind = $1 AND status = 'open'
         AND (expires_at IS NULL OR expires_at > $2)`,
        [kind, now],
      )
      return Number(r?.n)
    },

    async listDecisions(filter) {
      // Only the conditions asked for, and the status as a literal, so that either database can use
      // an index (the open ones have one of their own): a catch-all `($1 IS NULL OR kind = $1)` read
      // and sorted the whole table every time.
      const where: string[] = []
      const params: string[] = []
      if (filter.kind) where.push(`kind = $${params.push(filter.kind)}`)
      if (filter.status) where.push(`status = '${STATUS_SQL[filter.status]}'`)
      const rows = await sql.all(
        `SELECT * FROM decisions ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY created_at DESC LIMIT 500`,
        params,
      )
      return rows.map(toDecision)
    },

    async getDecision(id) {
      const r = await sql.get('SELECT * FROM decisions WHERE id = $1', [id])
      return r ? toDecision(r) : null
    },

    async latestDecision(kind, code, owner) {
      const r = await sql.get(
        `SELECT * FROM decisions WHERE kind = $1 AND code = $2 AND owner = $3
         ORDER BY created_at DESC LIMIT 1`,
        [kind, code, owner],
      )
      return r ? toDecision(r) : null
    },
  }
}
