// The terminal sessions area, on either store: one upsert per hook heard, so two hubs hearing the same
// session at once leave one row.
import { toTerminalSession } from '../rows.js'
import type { TerminalSessionStore } from '../terminal-sessions.js'
import type { Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; sessions last heard of before then. */
export const PRUNE_TERMINAL_SESSIONS = [
  `DELETE FROM terminal_sessions WHERE session_id IN
     (SELECT session_id FROM terminal_sessions WHERE last_seen_at < $1 LIMIT $2)`,
]

export function terminalSessionStore(sql: Sql): TerminalSessionStore {
  return {
    async sawTerminalSession(seen, at) {
      // A value the hook did not give (null here) keeps what was known.
      const r = await sql.get(
        `INSERT INTO terminal_sessions
           (session_id, folder, name, branch, model, channel, status, started_at, last_seen_at, repository, title)
         VALUES ($1, $2, $3, $4, $5, $6, 'running', $7, $7, $9, $10)
         ON CONFLICT (session_id) DO UPDATE SET
           folder = excluded.folder,
           branch = COALESCE(excluded.branch, terminal_sessions.branch),
           repository = COALESCE(excluded.repository, terminal_sessions.repository),
           title = COALESCE(terminal_sessions.title, excluded.title),
           model = COALESCE(excluded.model, terminal_sessions.model),
           channel = CASE WHEN $8 THEN excluded.channel ELSE terminal_sessions.channel END,
           status = 'running', last_seen_at = excluded.last_seen_at, ended_at = NULL, end_reason = NULL
         RETURNING *`,
        [
          seen.sessionId,
          seen.folder,
          seen.name,
          seen.branch ?? null,
          seen.model ?? null,
          seen.channel ?? false,
          at,
          seen.channel !== undefined,
          seen.repository ?? null,
          seen.title ?? null,
        ],
      )
      return toTerminalSession(r as NonNullable<typeof r>)
    },

    async endTerminalSession(sessionId, reason, at) {
      const n = await sql.run(
        `UPDATE terminal_sessions SET status = 'ended', ended_at = $2, last_seen_at = $2, end_reason = $3
         WHERE session_id = $1`,
        [sessionId, at, reason],
      )
      return n > 0
    },

    async getTerminalSession(sessionId) {
      const r = await sql.get('SELECT * FROM terminal_sessions WHERE session_id = $1', [sessionId])
      return r ? toTerminalSession(r) : null
    },

    async terminalSessionsNamed(name) {
      return (await sql.all('SELECT * FROM terminal_sessions WHERE name = $1', [name])).map(toTerminalSession)
    },

    async listTerminalSessions() {
      return (await sql.all('SELECT * FROM terminal_sessions ORDER BY last_seen_at DESC')).map(
        toTerminalSession,
      )
    },
  }
}
