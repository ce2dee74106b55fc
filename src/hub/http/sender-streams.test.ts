// A sender's open streams get each of its items once: when an item is shown as it is stored and the
// hub at the same moment catches up on what no stream was given (another hub's notice it may have
// missed), or a stream opens while items are being stored.
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import type { ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate } from 'node:timers/promises'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { withMethods } from '../../../test/helpers/store-overrides.js'
import { openSqliteStore } from '../../store/sqlite/index.js'
import type { OutboxItem, Store } from '../../store/store.js'
import { HubEvents } from '../core/hub-events.js'
import { SenderOutbox } from '../people/sender-outbox.js'
import { MAX_STREAMS_PER_SENDER, SenderStreams } from './sender-streams.js'

let folder: string
let store: Store
let senderId: string
beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'sb-streams-'))
  store = openSqliteStore(join(folder, 'hub.db'))
  senderId = (await store.addSender({ name: 'phone', tokenHash: 'h', status: 'allowed', operator: false })).id
})
afterEach(async () => {
  await store.close()
  rmSync(folder, { recursive: true, force: true })
})

/** What a stream's reader received: the ids of the SSE frames written to it; `leave` hangs up. */
function reader(): { res: ServerResponse; ids: () => number[]; leave: () => void } {
  const frames: string[] = []
  const res = Object.assign(new EventEmitter(), {
    destroyed: false,
    write: (frame: string) => frames.push(frame) > 0,
    end: () => {},
  })
  return {
    res: res as unknown as ServerResponse,
    ids: () => frames.map((f) => Number(/^id: (\d+)/.exec(f)?.[1])),
    // As node's response does when its client goes: destroyed, then 'close'.
    leave: () => {
      res.destroyed = true
      res.emit('close')
    },
  }
}

/** The store, with markStreamed held until `release` is called. */
function holdingMarks(): { store: Store; release: () => void; held: Promise<void> } {
  let release = () => {}
  let heard = () => {}
  const held = new Promise<void>((r) => {
    heard = r
  })
  const gate = new Promise<void>((r) => {
    release = r
  })
  const heldStore = withMethods(store, {
    async markStreamed(ids) {
      heard()
      await gate
      return store.markStreamed(ids)
    },
  })
  return { store: heldStore, release, held }
}

/** Lets what was started run as far as it can: the store answers in-process, within a turn. */
async function turns(): Promise<void> {
  for (let i = 0; i < 10; i++) await setImmediate()
}

const reply = (text: string) =>
  ({ kind: 'reply', body: { chat_id: 'chat_1', text, from: 'api', at: 1 } }) as const

/** A reply stored for the sender, as the outbox reads it back (no stream is told of it). */
async function stored(outbox: SenderOutbox, text: string): Promise<OutboxItem> {
  const item = await outbox.item(senderId, (await store.addOutbox(senderId, reply(text))).id)
  if (!item) throw new Error('the item did not read back')
  return item
}

it('writes an item being shown once, though a catch-up reads it before the show marks it streamed', async () => {
  const outbox = new SenderOutbox(store, new HubEvents(() => {}), () => {})
  const marks = holdingMarks()
  const streams = new SenderStreams(marks.store, outbox)
  const phone = reader()
  await streams.attach(senderId, phone.res, 0)

  const item = await stored(outbox, 'one')
  const shown = streams.show(item)
  await marks.held
  const caughtUp = streams.catchUp()
  await turns()
  marks.release()
  await Promise.all([shown, caughtUp])

  expect(phone.ids()).toEqual([item.id])
})

it('gives a stream that opens while an item is stored that item, once', async () => {
  const events = new HubEvents(() => {})
  const outbox = new SenderOutbox(store, events, () => {})
  const marks = holdingMarks()
  const streams = new SenderStreams(marks.store, outbox)
  events.stored.on(async (item) => {
    await streams.show(item)
    return undefined
  })
  await outbox.send(senderId, reply('before'))
  const phone = reader()

  // The replay of what the phone missed is written and being marked when the next item is stored.
  const attached = streams.attach(senderId, phone.res, 0)
  await marks.held
  const sent = outbox.send(senderId, reply('during'))
  await turns()
  marks.release()
  await Promise.all([attached, sent])

  const all = (await outbox.items(senderId, 0)).map((i) => i.id)
  expect(all).toHaveLength(2)
  expect(phone.ids()).toEqual(all)
})

it('keeps no place for a stream whose reader left while what it missed was replayed', async () => {
  const outbox = new SenderOutbox(store, new HubEvents(() => {}), () => {})
  await outbox.send(senderId, reply('missed'))
  const marks = holdingMarks()
  const streams = new SenderStreams(marks.store, outbox)
  marks.release()
  for (let i = 0; i < MAX_STREAMS_PER_SENDER; i++) {
    const phone = reader()
    const attached = streams.attach(senderId, phone.res, 0)
    phone.leave()
    await attached
  }
  // Each left before its stream was kept: a fifth may still open, and is given what comes.
  expect(streams.hasRoom(senderId)).toBe(true)
  const phone = reader()
  await streams.attach(senderId, phone.res, 0)
  await streams.show(await stored(outbox, 'new'))
  expect(phone.ids()).toHaveLength(2)
})

it('keeps at most its limit of streams for a sender, however many open at once', async () => {
  const outbox = new SenderOutbox(store, new HubEvents(() => {}), () => {})
  const streams = new SenderStreams(store, outbox)
  // As the route opens one: room is asked, then the stream attached, with no wait between; six
  // requests that arrive together all ask before the first stream is kept.
  const phones = Array.from({ length: MAX_STREAMS_PER_SENDER + 2 }, () => reader())
  const opening = phones.map((phone) =>
    streams.hasRoom(senderId) ? streams.attach(senderId, phone.res, 0) : null,
  )
  expect(opening.filter((o) => o === null)).toHaveLength(2)
  await Promise.all(opening)
  await streams.show(await stored(outbox, 'new'))
  expect(phones.filter((p) => p.ids().length > 0)).toHaveLength(MAX_STREAMS_PER_SENDER)
})
