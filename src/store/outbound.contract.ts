// The OutboundStore's contract: outbound webhooks, the log of their delivery attempts, and the
// receipts queued for those that asked: each told once, retried when due, kept until sent or given up.
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

    it('queues a receipt once per webhook, hands it out when due, and keeps it until it is done', async ({
      store,
    }) => {
      const hook = { url: 'https://ci.example/hook', secret: 's', maxAttempts: 5, backoffMs: 1000 }
      const told = await store.addOutboundWebhook({ name: 'told', ...hook, receipts: true })
      expect(told.receipts).toBe(true)
      await store.addOutboundWebhook({ name: 'other', ...hook, receipts: true })
      expect((await store.listOutboundWebhooks()).map((w) => [w.name, w.receipts])).toEqual([
        ['told', true],
        ['other', true],
      ])
      const notice = {
        eventId: 'ev_1',
        topic: 'ci',
        subscriber: 'alpha',
        stage: 'in_context' as const,
        at: 2_000,
        tries: 1,
        reason: null,
      }
      expect(await store.queueReceipt(['told', 'other'], notice)).toBe(2)
      // The same receipt reported again is not told again; another stage or session is.
      expect(await store.queueReceipt(['told'], { ...notice, at: 3_000 })).toBe(0)
      expect(await store.queueReceipt(['told'], { ...notice, stage: 'unconfirmed', reason: 'gone' })).toBe(1)
      const due = await store.dueReceipts('told', Date.now(), 10)
      expect(due).toEqual([
        { ...notice, id: expect.any(Number), webhook: 'told', attempts: 0 },
        {
          ...notice,
          stage: 'unconfirmed',
          reason: 'gone',
          id: expect.any(Number),
          webhook: 'told',
          attempts: 0,
        },
      ])
      const [first, second] = due
      if (!first || !second) throw new Error('nothing due')
      await store.receiptTried(first.id, Date.now() + 60_000)
      expect((await store.dueReceipts('told', Date.now(), 10)).map((r) => r.id)).toEqual([second.id])
      expect(await store.dueReceipts('told', Date.now() + 61_000, 1)).toMatchObject([
        { id: first.id, attempts: 1 },
      ])
      await store.receiptTried(second.id, null)
      await store.receiptTried(first.id, null)
      expect(await store.dueReceipts('told', Date.now() + 61_000, 10)).toEqual([])
      // Done, it is still remembered: told once, even when reported again.
      expect(await store.queueReceipt(['told'], notice)).toBe(0)
      await store.logOutbound({
        webhook: 'told',
        kind: 'receipt',
        eventId: 'ev_1',
        attempt: 1,
        status: 200,
        error: null,
      })
      expect(await store.outboundLog('told', 1)).toMatchObject([{ kind: 'receipt', eventId: 'ev_1' }])
      // Retention takes what was told, never what still waits to be.
      await store.queueReceipt(['told'], { ...notice, eventId: 'ev_2' })
      await store.prune(Date.now() + 1_000, 100)
      expect((await store.dueReceipts('told', Date.now(), 10)).map((r) => r.eventId)).toEqual(['ev_2'])
      expect(await store.removeOutboundWebhook('other')).toBe(true)
      expect(await store.dueReceipts('other', Date.now(), 10)).toEqual([])
    })
  })
}
