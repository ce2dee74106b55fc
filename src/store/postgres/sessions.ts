// The sessions area's lines on Postgres: a driven session's stream as numbered lines (its records
// are shared/sessions.ts).
import { CUT_HEAD_CHARS } from '../../core/session-api.js'
import { toLinePage } from '../rows.js'
import type { SessionStore } from '../sessions.js'
import type { PostgresDb } from './db.js'

/** Postgres' unique_violation. */
const UNIQUE_VIOLATION = '23505'

export function postgresSessionLines(
  db: PostgresDb,
): Pick<SessionStore, 'appendSessionLine' | 'sessionLines'> {
  return {
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
