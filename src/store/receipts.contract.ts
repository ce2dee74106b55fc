// The ReceiptStore's contract: a delivery's state only moves forward, its times are the first ones
// reported, an acknowledged delivery with nothing more said is `written`, and an unconfirmed event
// is handed to the hook once.
import { describe, expect } from 'vitest'
import { event, type OpenStore, publish, storeTest } from './contract.js'
import type { EventFilter } from './receipts.js'

export function describeReceiptStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('ReceiptStore', () => {
    it('reports a stored delivery, then the subscriber’s receipts, never going back', async ({ store }) => {
      await store.registerSubscriber('alpha', ['*'])
      await store.registerSubscriber('beta', ['*'])
      const [staged] = await publish(store, [event('ci', 'build failed')])
      const e = staged?.event
      if (!e) throw new Error('nothing staged')
      expect(await store.eventById(e.id)).toMatchObject({ id: e.id, content: 'build failed' })
      expect(await store.eventById('ev_nothing')).toBeNull()
      expect(await store.eventReceipts(e.id)).toEqual([
        {
          subscriber: 'alpha',
          state: 'stored',
          stored: e.created_at,
          written: null,
          inContext: null,
          tries: 0,
          reason: null,
        },
        {
          subscriber: 'beta',
          state: 'stored',
          stored: e.created_at,
          written: null,
          inContext: null,
          tries: 0,
          reason: null,
        },
      ])

      await store.recordReceipt({ eventId: e.id, subscriber: 'alpha', state: 'written', at: 1_000, tries: 1 })
      await store.recordReceipt({ eventId: e.id, subscriber: 'alpha', state: 'queued', at: 1_500, tries: 1 })
      await store.recordReceipt({
        eventId: e.id,
        subscriber: 'alpha',
        state: 'in_context',
        at: 2_000,
        tries: 1,
      })
      // A late report of an earlier stage changes nothing.
      await store.recordReceipt({ eventId: e.id, subscriber: 'alpha', state: 'written', at: 3_000, tries: 2 })
      await store.ack('alpha', [e.seq], 4_000)
      // An older channel only acknowledges: written, at its ack.
      await store.ack('beta', [e.seq], 5_000)
      // In the same commit as the receipts, the deliveries are gone.
      expect(await store.pendingDeliveries('alpha', 0, 10)).toEqual([])
      expect(await store.pendingDeliveries('beta', 0, 10)).toEqual([])
      expect(await store.eventReceipts(e.id)).toEqual([
        {
          subscriber: 'alpha',
          state: 'in_context',
          stored: e.created_at,
          written: 1_000,
          inContext: 2_000,
          tries: 2,
          reason: null,
        },
        {
          subscriber: 'beta',
          state: 'written',
          stored: e.created_at,
          written: 5_000,
          inContext: null,
          tries: 1,
          reason: null,
        },
      ])
    })

    it('finds events by text, source, topic, subscriber and state, newest first, a page at a time', async ({
      store,
    }) => {
      await store.registerSubscriber('alpha', ['ci'])
      await store.registerSubscriber('beta', ['ci', 'deploy'])
      const staged = await publish(store, [
        event('ci', 'Build 1 FAILED', { source: 'jenkins' }),
        event('deploy', 'deployed 100%_done'),
        event('orders', 'order paid'),
        event('ci', 'build 2 passed', { source: 'jenkins' }),
      ])
      const [build1, deployed, order, build2] = staged.map((s) => s.event.id)
      const [b1, , , b2] = staged.map((s) => s.event)
      if (!b1 || !b2) throw new Error('nothing staged')
      // alpha: build 1 in context, build 2 written (acknowledged); beta reported nothing on build 1.
      await store.recordReceipt({ eventId: b1.id, subscriber: 'alpha', state: 'in_context', at: 1, tries: 1 })
      await store.ack('alpha', [b1.seq, b2.seq], 2)
      await store.recordReceipt({ eventId: b2.id, subscriber: 'beta', state: 'unconfirmed', at: 3, tries: 5 })
      await store.ack('beta', [b2.seq], 4)
      const find = async (filter: Partial<EventFilter> = {}) =>
        (await store.findEvents({ limit: 10, ...filter })).map((e) => e.id)

      expect(await find()).toEqual([build2, order, deployed, build1])
      expect(await find({ text: 'build' })).toEqual([build2, build1])
      expect(await find({ text: '0%_' })).toEqual([deployed])
      expect(await find({ text: 'd_' })).toEqual([])
      expect(await find({ source: 'jenkins', topic: 'ci' })).toEqual([build2, build1])
      expect(await find({ topic: 'deploy' })).toEqual([deployed])
      expect(await find({ subscriber: 'alpha' })).toEqual([build2, build1])
      expect(await find({ subscriber: 'beta' })).toEqual([build2, deployed, build1])
      expect(await find({ state: 'parked' })).toEqual([order])
      expect(await find({ state: 'stored' })).toEqual([deployed, build1])
      expect(await find({ state: 'stored', subscriber: 'beta' })).toEqual([deployed, build1])
      expect(await find({ state: 'stored', subscriber: 'alpha' })).toEqual([])
      expect(await find({ state: 'in_context' })).toEqual([build1])
      expect(await find({ state: 'written', subscriber: 'alpha' })).toEqual([build2])
      expect(await find({ state: 'unconfirmed' })).toEqual([build2])
      expect(await find({ limit: 2 })).toEqual([build2, order])
      expect(await find({ limit: 2, beforeSeq: staged[2]?.event.seq })).toEqual([deployed, build1])
    })

    it('hands an unconfirmed event to the hook once, and takes its confirmation after', async ({ store }) => {
      await store.registerSubscriber('alpha', ['*'])
      const staged = await publish(store, [event('ci', 'one'), event('ci', 'two')])
      const [one, two] = staged.map((s) => s.event)
      if (!one || !two) throw new Error('nothing staged')
      await store.recordReceipt({
        eventId: one.id,
        subscriber: 'alpha',
        state: 'unconfirmed',
        at: 1_000,
        tries: 3,
        reason: 'channels are not enabled for this server',
      })
      await store.recordReceipt({
        eventId: two.id,
        subscriber: 'alpha',
        state: 'queued',
        at: 1_000,
        tries: 1,
      })
      expect((await store.takeUnconfirmed('alpha', 10, 2_000)).map((e) => e.content)).toEqual(['one'])
      expect(await store.takeUnconfirmed('alpha', 10, 3_000)).toEqual([])
      await store.recordReceipt({
        eventId: one.id,
        subscriber: 'alpha',
        state: 'in_context',
        at: 4_000,
        tries: 3,
      })
      expect((await store.eventReceipts(one.id))[0]).toMatchObject({
        state: 'in_context',
        written: 1_000,
        inContext: 4_000,
        tries: 3,
        reason: 'channels are not enabled for this server',
      })
    })

    it('hands back what a hook took and never handed over: pending again, or unconfirmed for the hook again', async ({
      store,
    }) => {
      await store.registerSubscriber('alpha', ['*'])
      const staged = await publish(store, [event('ci', 'one'), event('ci', 'two'), event('ci', 'three')])
      const [one, two, three] = staged.map((s) => s.event)
      if (!one || !two || !three) throw new Error('nothing staged')
      await store.recordReceipt({
        eventId: three.id,
        subscriber: 'alpha',
        state: 'unconfirmed',
        at: 500,
        tries: 5,
      })
      await store.ack('alpha', [three.seq], 500)
      // The hook's take: what is pending, acknowledged as written; and the unconfirmed one.
      const taken = await store.pendingDeliveries('alpha', 0, 10)
      expect(taken.map((e) => e.content)).toEqual(['one', 'two'])
      await store.ack(
        'alpha',
        taken.map((e) => e.seq),
        1_000,
      )
      expect((await store.takeUnconfirmed('alpha', 10, 1_000)).map((e) => e.content)).toEqual(['three'])

      await store.handBack('alpha', [one, two, three], 'the hook gave up', 2_000)
      expect((await store.pendingDeliveries('alpha', 0, 10)).map((e) => e.content)).toEqual(['one', 'two'])
      expect((await store.eventReceipts(one.id))[0]).toMatchObject({
        state: 'stored',
        written: null,
        reason: 'the hook gave up',
      })
      expect((await store.eventReceipts(three.id))[0]).toMatchObject({ state: 'unconfirmed', tries: 5 })
      expect((await store.takeUnconfirmed('alpha', 10, 3_000)).map((e) => e.content)).toEqual(['three'])
      // Taken again, it is written again.
      await store.ack('alpha', [one.seq], 4_000)
      expect((await store.eventReceipts(one.id))[0]).toMatchObject({ state: 'written', written: 4_000 })
    })
  })
}
