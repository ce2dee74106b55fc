// The contract of Store.prune: what goes once it is old, across every area, and what always stays.
import { describe, expect } from 'vitest'
import { event, type OpenStore, publish, storeTest } from './contract.js'

export function describeRetentionContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('Store: retention', () => {
    it('deletes what is old and needed by nobody, and keeps what a subscriber still waits for', async ({
      store,
    }) => {
      await store.registerSubscriber('away', ['waiting'])
      await store.registerSubscriber('here', ['*'])
      const old = await publish(store, [
        event('done', 'acked long ago'),
        event('waiting', 'still owed to away'),
      ])
      await store.ack(
        'here',
        old.map((s) => s.event.seq),
      )
      await store.addOutbox('snd_1', {
        kind: 'reply',
        body: { chat_id: 'chat_1', text: 'old reply', from: 'api', at: 1 },
      })
      const open = await store.openDecision({
        kind: 'permission',
        code: 'abcde',
        owner: 's',
        request: {},
        expiresAt: null,
      })
      const answered = await store.openDecision({
        kind: 'permission',
        code: 'fghij',
        owner: 's',
        request: {},
        expiresAt: null,
      })
      await store.answerDecision(answered.id, { behavior: 'allow' }, 'op')
      await store.appendSessionLine('ses_1', { type: 'result' })
      const [newest] = await publish(store, [event('done', 'newest')])
      await store.ack('here', [newest?.event.seq ?? 0])

      // Everything so far counts as old; the newest event stays so seqs only grow.
      let deleted = 0
      for (let n = -1; n !== 0; deleted += n) n = await store.prune(Date.now() + 1, 2)
      expect(deleted).toBe(4)
      expect((await store.pendingDeliveries('away', 0, 10)).map((e) => e.content)).toEqual([
        'still owed to away',
      ])
      expect(await store.outboxFor('snd_1', 0)).toEqual([])
      expect((await store.getDecision(open.id))?.status).toBe('open')
      expect(await store.getDecision(answered.id)).toBeNull()
      expect(
        (await store.sessionLines('ses_1', 0, { limit: 10, maxChars: 100_000, maxLineChars: 10_000 })).lines,
      ).toEqual([])
      const [next] = await publish(store, [event('done', 'after pruning')])
      expect(next?.event.seq).toBeGreaterThan(newest?.event.seq ?? Infinity)
    })

    it('keeps a parked event for each subscriber that comes to want it, until it is old', async ({
      store,
    }) => {
      const [parked] = await publish(store, [event('ci', 'parked')])
      const seq = parked?.event.seq ?? 0
      await store.registerSubscriber('early', ['ci'])
      await store.ack('early', [seq])
      await publish(store, [event('other', 'newest')])
      expect(await store.prune(Date.now() - 60_000, 100)).toBe(0)
      await store.registerSubscriber('later', ['ci'])
      expect((await store.pendingDeliveries('later', 0, 10)).map((e) => e.content)).toEqual(['parked'])
      await store.ack('later', [seq])
      for (let n = -1; n !== 0; ) n = await store.prune(Date.now() + 1, 100)
      await store.registerSubscriber('too-late', ['ci'])
      expect(await store.pendingDeliveries('too-late', 0, 10)).toEqual([])
    })

    it('keeps everything younger than the cut-off', async ({ store }) => {
      await publish(store, [event('t', 'one'), event('t', 'two')])
      await store.addOutbox('snd_1', {
        kind: 'reply',
        body: { chat_id: 'chat_1', text: 'fresh', from: 'api', at: 1 },
      })
      expect(await store.prune(Date.now() - 60_000, 100)).toBe(0)
    })
  })
}
