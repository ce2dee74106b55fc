// The sessions area on Postgres: a record per driven session, and its stream as numbered lines.

import { CUT_HEAD_CHARS } from '../../core/session-api.js'
import { toLinePage, toSession } from '../rows.js'
import type { SessionRecord, SessionStore } from '../sessions.js'
import type { PostgresDb } from './db.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of session lines. */
export const PRUNE_SESSION_LINES = [
  `DELETE FROM session_events WHERE (session_id, seq) IN
     (SELECT session_id, seq FROM session_events WHERE at < $1 LIMIT $2)`,
]

/** Postgres' unique_violation. */
const UNIQUE_VIOLATION = '23505'

export function postgresSessionStore(db: PostgresDb): SessionStore {
  async function getSession(id: string): Promise<SessionRecord | null> {
    const r = await db.row('SELECT * FROM sessions WHERE id = $1 OR claude_session_id = $1', [id])
    return r ? toSession(r) : null
  }

  return {
    async createSession(input) {
      const now = Date.now()
      await db.query(
        `INSERT INTO sessions (id, cwd, config, status, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)`,
        [input.id, input.cwd, JSON.stringify(input.config), input.status, now, now],
      )
      return (await getSession(input.id)) as SessionRecord
    },

    async updateSession(id, change) {
      const columns: Record<string, unknown> = {}
      if (change.claudeSessionId !== undefined) columns.claude_session_id = change.claudeSessionId
      if (change.status !== undefined) columns.status = change.status
      if (change.costUsd !== undefined) columns.cost_usd = change.costUsd
      if (change.turns !== undefined) columns.turns = change.turns
      if (change.lastResult !== undefined) columns.last_result = change.lastResult
      if (change.config !== undefined) columns.config = JSON.stringify(change.config)
      if (change.reason !== undefined) columns.reason = change.reason
      const keys = Object.keys(columns)
      if (keys.length === 0) return
      const set = keys.map((k, i) => `${k} = $${i + 3}`).join(', ')
      await db.query(`UPDATE sessions SET ${set}, updated_at = $2 WHERE id = $1`, [
        id,
        Date.now(),
        ...Object.values(columns),
      ])
    },

    getSession,

    async removeSession(id) {
      return db.tx(async (tx) => {
        await tx.query('DELETE FROM session_events WHERE session_id = $1', [id])
        const { rowCount } = await tx.query('DELETE FROM sessions WHERE id = $1', [id])
        return (rowCount ?? 0) > 0
      })
    },

    async listSessions() {
      return (await db.rows('SELECT * FROM sessions ORDER BY updated_at DESC')).map(toSession)
    },

    async appendSessionLine(id, line) {
      // Lines may come before (or without) the session's row, so there is no row to lock: two hubs
      // appending at once may pick the same seq, and the primary key makes the later one try again.
      // Each try's max() sees only committed lines, so seqs also commit in order.
      for (;;) {
        try {
          const r = await db.row(
            `INSERT INTO session_events (session_id, seq, line, at)
             SELECT $1, coalesce(max(seq), 0) + 1, $2::text, $3::bigint FROM session_events WHERE session_id = $1
             RETURNING seq`,
            [id, JSON.stringify(line), Date.now()],
          )
          return r?.seq as number
        } catch (err) {
          if ((err as { code?: string }).code !== UNIQUE_VIOLATION) throw err
        }
      }
    },

    async sessionLines(id, afterSeq, size) {
      // The page is cut in the database, long lines given as their head: rows up to the one past the
      // page, which says that more follow. So the hub receives what it returns, and one line more.
      const rows = await db.rows(
        `SELECT seq, at, chars, CASE WHEN chars > $4 THEN left(line, $5) ELSE line END AS line
         FROM (
           SELECT *, lag(upto, 2, 0) OVER (ORDER BY seq) AS before_previous
           FROM (
             SELECT seq, at, chars, line, sum(least(chars, $4)) OVER (ORDER BY seq) AS upto
             FROM (
               SELECT seq, at, line, length(line) AS chars FROM session_events
               WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3
             ) firstn
           ) counted
         ) page
         WHERE before_previous <= $6 ORDER BY seq`,
        [id, afterSeq, size.limit + 1, size.maxLineChars, CUT_HEAD_CHARS, size.maxChars],
      )
      return toLinePage(rows, size)
    },
  }
}
