// The decisions area in SQLite: one row per question put to a person; the first answer wins by an
// UPDATE that only matches while the row is still open.
import type Database from 'better-sqlite3'
import { newId } from '../../core/ids.js'
import type { Decision, DecisionStore } from '../decisions.js'
import { type Row, toDecision } from '../rows.js'

/** Retention (see Store.prune): one batch of decisions no longer open. */
export const PRUNE_DECISIONS = [
  `DELETE FROM decisions WHERE id IN (SELECT id FROM decisions WHERE status != 'open'
     AND coalesce(answered_at, created_at) < @before LIMIT @limit)`,
]

export function sqliteDecisionStore(db: Database.Database): DecisionStore {
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
      db.prepare(
        `INSERT INTO decisions (id, kind, code, owner, status, request, created_at, expires_at)
         VALUES (?, ?, ?, ?, 'open', ?, ?, ?)`,
      ).run(d.id, d.kind, d.code, d.owner, JSON.stringify(d.request), d.createdAt, d.expiresAt)
      return d
    },

    async openDecisionsByCode(kind, code, now) {
      const rows = db
        .prepare(
          `SELECT * FROM decisions WHERE kind = ? AND code = ? AND status = 'open'
           AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at DESC`,
        )
        .all(kind, code, now) as Row[]
      return rows.map(toDecision)
    },

    async answerDecision(id, answer, answeredBy) {
      const changed = db
        .prepare(
          `UPDATE decisions SET status = 'answered', answer = ?, answered_by = ?, answered_at = ?
           WHERE id = ? AND status = 'open'`,
        )
        .run(JSON.stringify(answer), answeredBy, Date.now(), id).changes
      if (changed === 0) return null
      return toDecision(db.prepare('SELECT * FROM decisions WHERE id = ?').get(id) as Row)
    },

    async unrelayedAnswers(kind, owner) {
      const rows = db
        .prepare(
          `SELECT * FROM decisions WHERE kind = ? AND owner = ? AND status = 'answered' AND relayed = 0
           ORDER BY answered_at`,
        )
        .all(kind, owner) as Row[]
      return rows.map(toDecision)
    },

    async markRelayed(id) {
      db.prepare('UPDATE decisions SET relayed = 1 WHERE id = ?').run(id)
    },

    async cancelOpenDecisions(kind, owner) {
      return db
        .prepare(`UPDATE decisions SET status = 'cancelled' WHERE kind = ? AND owner = ? AND status = 'open'`)
        .run(kind, owner).changes
    },

    async cancelDecisions(ids) {
      const cancel = db.prepare(`UPDATE decisions SET status = 'cancelled' WHERE id = ? AND status = 'open'`)
      db.transaction(() => {
        for (const id of ids) cancel.run(id)
      })()
    },

    async expireDecisions(now) {
      return db.transaction(() => {
        const rows = db
          .prepare(
            `SELECT * FROM decisions WHERE status = 'open' AND expires_at IS NOT NULL AND expires_at <= ?`,
          )
          .all(now) as Row[]
        const expire = db.prepare(`UPDATE decisions SET status = 'expired' WHERE id = ?`)
        for (const r of rows) expire.run(r.id)
        return rows.map((r) => ({ ...toDecision(r), status: 'expired' as const }))
      })()
    },

    async countOpen(kind, now) {
      const r = db
        .prepare(
          `SELECT COUNT(*) AS n FROM decisions WHERE kind = ? AND status = 'open'
           AND (expires_at IS NULL OR expires_at > ?)`,
        )
        .get(kind, now) as { n: number }
      return r.n
    },

    async listDecisions(filter) {
      const rows = db
        .prepare(
          `SELECT * FROM decisions WHERE (@kind IS NULL OR kind = @kind) AND (@status IS NULL OR status = @status)
           ORDER BY created_at DESC LIMIT 500`,
        )
        .all({ kind: filter.kind ?? null, status: filter.status ?? null }) as Row[]
      return rows.map(toDecision)
    },

    async getDecision(id) {
      const r = db.prepare('SELECT * FROM decisions WHERE id = ?').get(id) as Row | undefined
      return r ? toDecision(r) : null
    },
  }
}
