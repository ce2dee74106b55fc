// The OutboundStore's contract: outbound webhooks and the log of their delivery attempts.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'

export function describeOutboundStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('OutboundStore', () => {
    it('keeps outbound webhooks', async ({ store }) => {
      const ci = await store.addOutboundWebhook({
        name: 'ci',
        url: 'https://ci.example/hook',
        secret: 'whsec_1',
        maxAttempts: 5,
        backoffMs: 1000,
      })
      expect(await store.listOutboundWebhooks()).toEqual([ci])
    })

    it('forgets a removed webhook with its log', async ({ store }) => {
      const hook = { url: 'https://ci.example/hook', secret: 's', maxAttempts: 5, backoffMs: 1000 }
      await store.addOutboundWebhook({ name: 'gone', ...hook })
      const stays = await store.addOutboundWebhook({ name: 'stays', ...hook })
      await store.logOutbound({ webhook: 'gone', eventId: 'ev_1', attempt: 1, status: 500, error: null })
      expect(await store.removeOutboundWebhook('gone')).toBe(true)
      expect(await store.removeOutboundWebhook('gone')).toBe(false)
      expect(await store.listOutboundWebhooks()).toEqual([stays])
      expect(await store.outboundLog('gone', 10)).toEqual([])
    })

    it('logs each webhook’s attempts, newest first, up to a limit', async ({ store }) => {
      await store.logOutbound({ webhook: 'ci', eventId: 'ev_1', attempt: 1, status: null, error: 'refused' })
      await store.logOutbound({ webhook: 'other', eventId: 'ev_1', attempt: 1, status: 200, error: null })
      await store.logOutbound({ webhook: 'ci', eventId: 'ev_1', attempt: 2, status: 500, error: null })
      await store.logOutbound({ webhook: 'ci', eventId: 'ev_1', attempt: 3, status: 200, error: null })
      const log = await store.outboundLog('ci', 2)
      expect(log.map((a) => [a.attempt, a.status, a.error])).toEqual([
        [3, 200, null],
        [2, 500, null],
      ])
      expect((await store.outboundLog('ci', 10)).at(-1)).toMatchObject({
        attempt: 1,
        status: null,
        error: 'refused',
      })
    })
  })
}
