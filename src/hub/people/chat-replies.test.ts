// The dashboard's web chat reads a browser's replies from its outbox: a row there that is no reply
// (written by hand, or by a hub that wrote another shape) must not reach the page as "undefined".
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { memoryHub } from '../../../test/helpers/memory-hub.js'
import { countingOutboxRows } from '../../../test/helpers/outbox-rows-read.js'
import { writeOutboxRow } from '../../../test/helpers/raw-outbox.js'
import type { ChatReply } from '../../core/api/rows.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import { ChatReplies } from './chat-replies.js'

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
const writeRaw = (kind: string, body: unknown) =>
  writeOutboxRow(join(folder, 'hub.db'), 'snd_browser', kind, JSON.stringify(body))

it('shows a browser the replies that are replies, and skips a row that is not one', async () => {
  const hub = memoryHub(store)
  writeRaw('reply', { chat_id: 'chat_1', from: 'api', at: 1 })
  writeRaw('reply', { chat_id: 'chat_1', text: 'done', from: 'api', at: 2 })
  const shown: ChatReply[] = []
  const stop = await new ChatReplies(hub).follow('snd_browser', 0, (_id, reply) => shown.push(reply))
  stop()
  expect(shown).toEqual([{ chat_id: 'chat_1', text: 'done', from: 'api', at: 2 }])
})

it('reads only the replies of a browser whose outbox keeps every prompt it was sent as well', async () => {
  // An operator's browser is sent each prompt and its outcome: thousands kept, beside a few replies.
  for (let i = 0; i < 50; i++) {
    writeRaw('permission', { id: `code${i}`, session: 'api', tool_name: 'Bash', text: 'api: Bash: ls' })
    writeRaw('notice', { text: `answered code${i}` })
  }
  writeRaw('reply', { chat_id: 'chat_1', text: 'done', from: 'api', at: 2 })
  const counting = countingOutboxRows(store)
  const shown: ChatReply[] = []
  const stop = await new ChatReplies(memoryHub(counting.store)).follow('snd_browser', 0, (_id, reply) =>
    shown.push(reply),
  )
  stop()
  expect(shown).toEqual([{ chat_id: 'chat_1', text: 'done', from: 'api', at: 2 }])
  expect(counting.rowsRead()).toBe(1)
})
