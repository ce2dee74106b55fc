// The LeaseStore's contract: one holder at a time, renewed while it lives, taken over once it lapses.
import { describe, expect } from 'vitest'
import { event, type OpenStore, publish, storeTest } from './contract.js'

export function describeLeaseStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('LeaseStore', () => {
    it('gives a lease to one holder at a time, and to another once it lapses, with the next epoch', async ({
      store,
    }) => {
      const first = await store.acquireLease('bridge:telegram', 'hub-a', 10_000, 1_000, '127.0.0.1:7420')
      expect(first).toMatchObject({ holder: 'hub-a', epoch: 1, expiresAt: 11_000, note: '127.0.0.1:7420' })
      expect(await store.acquireLease('bridge:telegram', 'hub-b', 10_000, 5_000)).toBeNull()
      // Renewed by its holder: same epoch, later expiry.
      expect(await store.acquireLease('bridge:telegram', 'hub-a', 10_000, 6_000)).toMatchObject({
        epoch: 1,
        expiresAt: 16_000,
      })
      expect(await store.acquireLease('bridge:telegram', 'hub-b', 10_000, 16_000)).toMatchObject({
        holder: 'hub-b',
        epoch: 2,
      })
      expect(await store.acquireLease('bridge:telegram', 'hub-a', 10_000, 17_000)).toBeNull()
    })

    it('frees a released lease at once and keeps counting epochs', async ({ store }) => {
      await store.acquireLease('retention', 'hub-a', 10_000, 1_000)
      await store.releaseLease('retention', 'hub-b') // not b's: nothing happens
      expect(await store.acquireLease('retention', 'hub-b', 10_000, 2_000)).toBeNull()
      await store.releaseLease('retention', 'hub-a')
      expect(await store.acquireLease('retention', 'hub-b', 10_000, 2_000)).toMatchObject({ epoch: 2 })
    })

    it('lets a hub seize a lease whoever holds it, with the next epoch', async ({ store }) => {
      await store.acquireLease('subscriber:ci', 'hub-a', 10_000, 1_000)
      expect(await store.seizeLease('subscriber:ci', 'hub-b', 10_000, 2_000)).toMatchObject({
        holder: 'hub-b',
        epoch: 2,
      })
      expect(await store.seizeLease('subscriber:new', 'hub-b', 10_000, 2_000)).toMatchObject({ epoch: 1 })
      expect(await store.getLease('subscriber:ci')).toMatchObject({ holder: 'hub-b', epoch: 2 })
      expect(await store.getLease('subscriber:none')).toBeNull()
    })

    it('fences a reader whose lease changed hands: it reads no more deliveries', async ({ store }) => {
      await store.registerSubscriber('ci', ['*'])
      await publish(store, [event('t', 'one')])
      const mine = await store.seizeLease('subscriber:ci', 'hub-a', 10_000, 1_000)
      const fence = { lease: 'subscriber:ci', holder: 'hub-a', epoch: mine.epoch }
      expect((await store.pendingDeliveries('ci', 0, 10, fence)).map((e) => e.content)).toEqual(['one'])
      await store.seizeLease('subscriber:ci', 'hub-b', 10_000, 2_000)
      expect(await store.pendingDeliveries('ci', 0, 10, fence)).toEqual([])
      // Still there for the hub that holds it now.
      const theirs = { lease: 'subscriber:ci', holder: 'hub-b', epoch: mine.epoch + 1 }
      expect(await store.pendingDeliveries('ci', 0, 10, theirs)).toHaveLength(1)
    })

    it('renews only the live leases of one holder, and lists leases by prefix', async ({ store }) => {
      await store.acquireLease('session:1', 'hub-a', 10_000, 1_000)
      await store.acquireLease('session:2', 'hub-a', 1_000, 1_000)
      await store.acquireLease('session:3', 'hub-b', 10_000, 1_000)
      await store.acquireLease('retention', 'hub-a', 10_000, 1_000)
      // At 5 s, session:2 has lapsed: it is not revived.
      expect((await store.renewLeases('hub-a', 10_000, 5_000)).sort()).toEqual(['retention', 'session:1'])
      expect((await store.listLeases('session:')).map((l) => [l.name, l.holder, l.expiresAt])).toEqual([
        ['session:1', 'hub-a', 15_000],
        ['session:2', 'hub-a', 2_000],
        ['session:3', 'hub-b', 11_000],
      ])
    })
  })
}
