// OpenCode's own record of its sessions (shared/AGENTS.md §3d): one SQLite store,
// `$XDG_DATA_HOME/opencode/opencode.db`, where each message is a `message` row (its role in the JSON
// `data`) and its text is in `part` rows. A prompt OpenCode has taken into a session's conversation is
// a user message there, and every later turn sends the model that conversation: so a user message in
// the record whose text part is T is what proves that T reached the session's context. OpenCode
// keeps no file per session to read instead, and a prompt it has only queued is not a message yet.
// The store is opened read-only, and only while it is read: OpenCode is its one writer.
import { existsSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import * as z from 'zod'

/** Where OpenCode keeps its sessions for this environment (`~/.local/share` when XDG_DATA_HOME is unset). */
export function opencodeStore(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(env.HOME || homedir(), '.local', 'share'), 'opencode', 'opencode.db')
}

/** A part's `data`: only text parts say what a message said. */
const textPartSchema = z.object({
  type: z.literal('text'),
  text: z.string(),
  synthetic: z.boolean().optional(),
})

/** How long a read waits for OpenCode's write to end before it gives up. */
const BUSY_MS = 2_000

/**
 * The texts of the person's (the client's) messages in a session, oldest first: one entry per text
 * part. Null when there is no store to read, or it cannot be read as OpenCode's (another version's
 * tables, say): then nothing can be confirmed from it.
 */
export function userTexts(store: string, sessionId: string): string[] | null {
  if (!existsSync(store)) return null
  let db: Database.Database | null = null
  try {
    db = new Database(store, { readonly: true, fileMustExist: true, timeout: BUSY_MS })
    const rows = db
      .prepare(
        `select p.data as data from part p join message m on m.id = p.message_id
         where m.session_id = ? and json_extract(m.data, '$.role') = 'user'
         order by m.time_created, m.id, p.id`,
      )
      .all(sessionId) as { data: string }[]
    const texts: string[] = []
    for (const row of rows) {
      const part = textPartSchema.safeParse(parsed(row.data))
      // OpenCode's own additions to a prompt (a file's contents, say) are not what anyone sent.
      if (part.success && !part.data.synthetic) texts.push(part.data.text)
    }
    return texts
  } catch {
    return null
  } finally {
    db?.close()
  }
}

/** Whether OpenCode's record shows a message of the person's in the session whose text is this text. */
export function recordShows(store: string, sessionId: string, text: string): boolean {
  return userTexts(store, sessionId)?.includes(text) ?? false
}

function parsed(json: string): unknown {
  try {
    return JSON.parse(json)
  } catch {
    return null
  }
}
