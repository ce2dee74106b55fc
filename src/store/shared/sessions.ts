// The sessions area's records, on either store: one per driven session. Its lines (appending one,
// reading a page) are each store's own, in sqlite/sessions.ts and postgres/sessions.ts.
import { toSession } from '../rows.js'
import type { SessionRecord, SessionStore } from '../sessions.js'
import type { Sql } from './sql.js'

/** Retention (see Store.prune): $1 before, $2 limit; one batch of session lines. */
export const PRUNE_SESSION_LINES = [
  `DELETE FROM session_events WHERE (session_id, seq) IN
     (SELECT session_id, seq FROM session_events WHERE at < $1 LIMIT $2)`,
]

export type SessionRecords = Omit<SessionStore, 'appendSessionLine' | 'sessionLines'>

export function sessionRecords(sql: Sql): SessionRecords {
  async function getSession(id: string): Promise<SessionRecord | null> {
    const r = await sql.get('SELECT * FROM sessions WHERE id = $1 OR claude_session_id = $1', [id])
    return r ? toSession(r) : null
  }

  return {
    async createSession(input) {
      const now = Date.now()
      await sql.run(
        `INSERT INTO sessions (id, cwd, config, status, first_prompt, project, routine, started_by,
           created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          input.id,
          input.cwd,
          JSON.stringify(input.config),
          input.status,
          input.firstPrompt ?? null,
          input.project ?? null,
          input.routine ?? null,
          input.startedBy ?? null,
          now,
          now,
        ],
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
      if (change.title !== undefined) columns.title = change.title
      const keys = Object.keys(columns)
      if (keys.length === 0) return
      const set = keys.map((k, i) => `${k} = $${i + 3}`).join(', ')
      await sql.run(`UPDATE sessions SET ${set}, updated_at = $2 WHERE id = $1`, [
        id,
        Date.now(),
        ...Object.values(columns),
      ])
    },

    getSession,

    async removeSession(id) {
      const [, removed] = await sql.batch([
        ['DELETE FROM session_events WHERE session_id = $1', [id]],
        ['DELETE FROM sessions WHERE id = $1', [id]],
      ])
      return (removed ?? 0) > 0
    },

    async listSessions() {
      return (await sql.all('SELECT * FROM sessions ORDER BY updated_at DESC')).map(toSession)
    },
  }
}
