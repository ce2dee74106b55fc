// Every reader gets an outbox's items through the sender outbox, read as messages: a row that is not
// one (a kind from a newer hub, a body written by hand) is logged once and skipped, and the items
// after it still come.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { countingOutboxRows } from '../../../test/helpers/outbox-rows-read.js'
import { writeOutboxRow } from '../../../test/helpers/raw-outbox.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { Store } from '../../store/store.js'
import { HubEvents } from '../core/hub-events.js'
import { SenderOutbox } from './sender-outbox.js'

let folder: string
let store: Store
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sb-outbox-'))
  store = openSqliteStore(join(folder, 'hub.db'))
})
afterEach(async () => {
  await store.close()
  rmSync(folder, { recursive: true, force: true })
})

/** Writes a row as another program could, past the store's typed door. */
const writeRaw = (kind: string, body: string) => writeOutboxRow(join(folder, 'hub.db'), 'snd_1', kind, body)

it('skips and reports an unreadable item, once, and still hands out the ones after it', async () => {
  const reported: string[] = []
  const outbox = new SenderOutbox(store, new HubEvents(() => {}), (item, reason) =>
    reported.push(`${item.kind}: ${reason}`),
  )
  await outbox.send('snd_1', { kind: 'paired', body: { text: 'Paired', operator: false } })
  writeRaw('verdict', '{"text":"from a newer hub"}')
  writeRaw('reply', '{"text":"no chat"}')
  writeRaw('notice', 'not json')
  await outbox.send('snd_1', {
    kind: 'reply',
    body: { chat_id: 'chat_1', text: 'still here', from: 'api', at: 1 },
  })

  const items = await outbox.items('snd_1', null)
  expect(items.map((i) => i.kind)).toEqual(['paired', 'reply'])
  expect(items[1]?.kind === 'reply' && items[1].body.text).toBe('still here')
  expect(reported).toEqual([
    'verdict: unknown outbox item kind "verdict" (known: reply, paired, permission, question, plan, denied, decision, notice, thread-end)',
    expect.stringMatching(/^reply: a "reply" item's body\.chat_id: /),
    expect.stringMatching(/^notice: a "notice" item's body: /),
  ])
  // A stream's catch-up reads them again: nothing more is said of them.
  await outbox.items('snd_1', 0)
  expect(reported).toHaveLength(3)
})

it('hands each stored item to the surfaces listening, says what the one owning the sender said, and no more once a surface is off', async () => {
  const failures: string[] = []
  const events = new HubEvents((what, err) => failures.push(`${what}: ${(err as Error).message}`))
  const outbox = new SenderOutbox(store, events, () => {})
  const seen: string[] = []
  const off = events.stored.on((item) => {
    seen.push(item.kind)
    return undefined
  })
  events.stored.on(() => {
    throw new Error('a surface broke')
  })
  events.stored.on(async () => ({ queued: true, note: 'queued: telegram is down' }))
  const paired = { kind: 'paired', body: { text: 'Paired', operator: false } } as const

  expect(await outbox.send('snd_1', paired)).toEqual({ queued: true, note: 'queued: telegram is down' })
  off()
  await outbox.send('snd_1', paired)
  expect(seen).toEqual(['paired'])
  expect(failures).toEqual(['an outbox listener: a surface broke', 'an outbox listener: a surface broke'])
  expect(await outbox.items('snd_1', null)).toHaveLength(2)
})

it('hears of an item another hub stored by reading that item alone, however many the sender had since', async () => {
  // A hub that falls behind on its notices reads each item late: were every later item of the
  // sender read with it, each notice would cost more the further behind it is, and it fell further.
  const first = await store.addOutbox('snd_1', { kind: 'paired', body: { text: 'Paired', operator: true } })
  for (let i = 0; i < 200; i++)
    await store.addOutbox('snd_1', {
      kind: 'reply',
      body: { chat_id: 'chat_1', text: `later ${i}`, from: 'api', at: i },
    })
  const counting = countingOutboxRows(store)
  const events = new HubEvents(() => {})
  const heard: number[] = []
  events.stored.on((item, here) => {
    if (!here) heard.push(item.id)
    return undefined
  })
  const outbox = new SenderOutbox(counting.store, events, () => {})

  await outbox.storedElsewhere('snd_1', first.id)
  await outbox.storedElsewhere('snd_2', first.id)
  expect(heard).toEqual([first.id])
  expect(counting.rowsRead()).toBe(1)
})
