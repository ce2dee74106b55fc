// The SQLite events area where the contract cannot reach: a write SQLite refuses part-way.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { event, publish } from '../contract.js'
import type { Store } from '../store.js'
import { openSqliteStore } from './index.js'

let store: Store
beforeEach(() => {
  store = openSqliteStore(':memory:')
})
afterEach(async () => {
  await store.close()
})

describe('durable delivery', () => {
  it('never gives a seq it handed out to another event, even when the write fails', async () => {
    await store.registerSubscriber('live', ['*'])
    const [first] = await publish(store, [event('t', 'first')])
    const [shown] = await store.stage([event('t', 'shown to subscribers, then its write failed')])
    if (!first || !shown) throw new Error('nothing staged')
    // As if another writer had taken the seq: the transaction fails on the primary key.
    const clash = { ...shown, event: { ...shown.event, seq: first.event.seq } }
    await expect(store.write([clash])).rejects.toThrow(/UNIQUE|PRIMARY/)
    const [next] = await publish(store, [event('t', 'second')])
    expect(next?.event.seq).toBeGreaterThan(shown.event.seq)
    expect((await store.pendingDeliveries('live', 0, 10)).map((e) => e.content)).toEqual(['first', 'second'])
  })
})
