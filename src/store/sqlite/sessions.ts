// The sessions area's lines in SQLite: a driven session's stream as numbered lines (its records are
// shared/sessions.ts).
import type Database from 'better-sqlite3'
import { CUT_HEAD_CHARS } from '../../core/session-api.js'
import { type Row, toLinePage } from '../rows.js'
import type { SessionStore } from '../sessions.js'

export function sqliteSessionLines(
  db: Database.Database,
): Pick<SessionStore, 'appendSessionLine' | 'sessionLines'> {
  return {
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
