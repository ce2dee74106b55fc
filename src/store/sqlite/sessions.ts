// The sessions area in SQLite: a record per driven session, and its stream as numbered lines.
import type Database from 'better-sqlite3'
import { CUT_HEAD_CHARS } from '../../core/session-api.js'
import { type Row, toLinePage, toSession } from '../rows.js'
import type { SessionRecord, SessionStore } from '../sessions.js'

/** Retention (see Store.prune): one batch of session lines. */
export const PRUNE_SESSION_LINES = [
  `DELETE FROM session_events WHERE (session_id, seq) IN
     (SELECT session_id, seq FROM session_events WHERE at < @before LIMIT @limit)`,
]

export function sqliteSessionStore(db: Database.Database): SessionStore {
  async function getSession(id: string): Promise<SessionRecord | null> {
    const r = db.prepare('SELECT * FROM sessions WHERE id = ? OR claude_session_id = ?').get(id, id) as
      | Row
      | undefined
    return r ? toSession(r) : null
  }

  return {
    async createSession(input) {
      const now = Date.now()
      db.prepare(
        `INSERT INTO sessions (id, cwd, config, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ).run(input.id, input.cwd, JSON.stringify(input.config), input.status, now, now)
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
      const set = keys.map((k) => `${k} = @${k}`).join(', ')
      db.prepare(`UPDATE sessions SET ${set}, updated_at = @now WHERE id = @id`).run({
        ...columns,
        now: Date.now(),
        id,
      })
    },

    getSession,

    async removeSession(id) {
      return db.transaction(() => {
        db.prepare('DELETE FROM session_events WHERE session_id = ?').run(id)
        return db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes > 0
      })()
    },

    async listSessions() {
      return (db.prepare('SELECT * FROM sessions ORDER BY updated_at DESC').all() as Row[]).map(toSession)
    },

    async appendSessionLine(id, line) {
      return db.transaction(() => {
        const { next } = db
          .prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM session_events WHERE session_id = ?')
          .get(id) as { next: number }
        db.prepare('INSERT INTO session_events (session_id, seq, line, at) VALUES (?, ?, ?, ?)').run(
          id,
          next,
          JSON.stringify(line),
          Date.now(),
        )
        return next
      })()
    },

    async sessionLines(id, afterSeq, size) {
      // Row by row, so a page never holds more than it returns (and one line past it).
      const rows = db
        .prepare(
          `SELECT seq, at, length(line) AS chars,
             CASE WHEN length(line) > @cap THEN substr(line, 1, @head) ELSE line END AS line
           FROM session_events WHERE session_id = @id AND seq > @after ORDER BY seq LIMIT @limit`,
        )
        .iterate({ id, after: afterSeq, cap: size.maxLineChars, head: CUT_HEAD_CHARS, limit: size.limit + 1 })
      return toLinePage(rows as Iterable<Row>, size)
    },
  }
}
