// The dashboard's web chat reads a browser's replies from its outbox: a row there that is no reply
// (written by hand, or by a hub that wrote another shape) must not reach the page as "undefined".
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { pino } from 'pino'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ChatReply } from '../../core/api/rows.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import { Hub } from '../core/hub.js'
import { LeaseKeeper } from '../core/lease-keeper.js'
import { ChatReplies } from './chat-replies.js'

const log = pino({ level: 'silent' })
let folder: string
let store: Store
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sb-replies-'))
  store = openSqliteStore(join(folder, 'hub.db'))
})
afterEach(async () => {
  await store.close()
  rmSync(folder, { recursive: true, force: true })
})

/** A row as another program could write it, past the store's typed door. */
function writeRaw(kind: string, body: unknown): void {
  const db = new Database(join(folder, 'hub.db'))
  db.prepare('INSERT INTO outbox (sender_id, kind, body, created_at) VALUES (?, ?, ?, ?)').run(
    'snd_browser',
    kind,
    JSON.stringify(body),
    Date.now(),
  )
  db.close()
}

it('shows a browser the replies that are replies, and skips a row that is not one', async () => {
  const hub = new Hub(store, log, new LeaseKeeper(store, 'hub_test', log, () => null, 10_000))
  writeRaw('reply', { chat_id: 'chat_1', from: 'api', at: 1 })
  writeRaw('reply', { chat_id: 'chat_1', text: 'done', from: 'api', at: 2 })
  const shown: ChatReply[] = []
  const stop = await new ChatReplies(hub).follow('snd_browser', 0, (_id, reply) => shown.push(reply))
  stop()
  expect(shown).toEqual([{ chat_id: 'chat_1', text: 'done', from: 'api', at: 2 }])
})
