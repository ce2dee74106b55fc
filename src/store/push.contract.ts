// The PushStore's contract: one key pair for good, whoever makes it first; subscriptions kept per
// browser endpoint (subscribing again replaces), listed oldest first and removed by id.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describePushStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('PushStore', () => {
    it('makes the key pair once and gives the same one after a restart', async ({ store, reopen }) => {
      const first = { publicKey: 'BPub-1', privateKey: 'priv-1' }
      expect(await store.pushKeys(() => first)).toEqual(first)
      let madeAgain = false
      const again = await store.pushKeys(() => {
        madeAgain = true
        return { publicKey: 'BPub-2', privateKey: 'priv-2' }
      })
      expect(again).toEqual(first)
      expect(madeAgain).toBe(false)
      const reopened = await reopen()
      expect(await reopened.pushKeys(() => ({ publicKey: 'x', privateKey: 'y' }))).toEqual(first)
    })

    it('keeps a subscription per endpoint, replaces it when the browser subscribes again, and removes it', async ({
      store,
      reopen,
    }) => {
      const phone = {
        id: 'push_1',
        senderId: 'snd_phone',
        endpoint: 'https://push.example/phone',
        p256dh: 'BKey-1',
        auth: 'auth-1',
        displayName: 'Mobile Safari',
      }
      expect(await store.addPushSubscription(phone)).toMatchObject(phone)
      await store.addPushSubscription({
        ...phone,
        id: 'push_2',
        senderId: 'snd_laptop',
        endpoint: 'https://push.example/laptop',
        displayName: null,
      })
      // The phone again, with new keys: one row for it, the new one.
      await store.addPushSubscription({ ...phone, id: 'push_3', p256dh: 'BKey-3', auth: 'auth-3' })
      const listed = await (await reopen()).listPushSubscriptions()
      expect(listed.map((s) => [s.id, s.endpoint, s.p256dh])).toEqual([
        ['push_2', 'https://push.example/laptop', 'BKey-1'],
        ['push_3', 'https://push.example/phone', 'BKey-3'],
      ])
      expect(listed[1]?.createdAt).toEqual(expect.any(Number))
    })

    it('removes a subscription by id, once', async ({ store }) => {
      await store.addPushSubscription({
        id: 'push_1',
        senderId: 'snd_1',
        endpoint: 'https://push.example/1',
        p256dh: 'k',
        auth: 'a',
        displayName: null,
      })
      expect(await store.removePushSubscription('push_1')).toBe(true)
      expect(await store.removePushSubscription('push_1')).toBe(false)
      expect(await store.listPushSubscriptions()).toEqual([])
    })
  })
}
