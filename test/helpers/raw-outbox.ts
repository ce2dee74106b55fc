// An outbox row written as another program could write it, past the store's typed door: a kind a
// newer hub knows, or a body written by hand.
import Database from 'better-sqlite3'

export function writeOutboxRow(dbFile: string, senderId: string, kind: string, body: string): void {
  const db = new Database(dbFile)
  db.prepare('INSERT INTO outbox (sender_id, kind, body, created_at) VALUES (?, ?, ?, ?)').run(
    senderId,
    kind,
    body,
    Date.now(),
  )
  db.close()
}
