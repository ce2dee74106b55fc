// The DecisionStore's contract: questions put to people, the first answer, expiry and cancelling.
import { describe, expect } from 'vitest'
import { type OpenStore, storeTest } from './contract.js'
import type { DecisionKind } from './decisions.js'

const ask = (kind: DecisionKind, code: string, owner = 's', expiresAt: number | null = null) => ({
  kind,
  code,
  owner,
  request: {},
  expiresAt,
})

export function describeDecisionStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('DecisionStore', () => {
    it('lets the first answer win and records who gave it', async ({ store }) => {
      const d = await store.openDecision({
        kind: 'permission',
        code: 'abcde',
        owner: 's',
        request: {},
        expiresAt: null,
      })
      const first = await store.answerDecision(d.id, { behavior: 'allow' }, 'alice')
      const second = await store.answerDecision(d.id, { behavior: 'deny' }, 'bob')
      expect(first).toMatchObject({ status: 'answered', answeredBy: 'alice', answer: { behavior: 'allow' } })
      expect(second).toBeNull()
    })

    it('expires decisions whose time is up', async ({ store }) => {
      await store.openDecision({ kind: 'pairing', code: 'c1', owner: 's', request: {}, expiresAt: 1000 })
      expect(await store.countOpen('pairing', 999)).toBe(1)
      expect(await store.countOpen('pairing', 1000)).toBe(0)
      // A prompt's end is its timeout's answer, never the sweep's.
      await store.openDecision({ kind: 'permission', code: 'c2', owner: 's', request: {}, expiresAt: 1000 })
      expect((await store.expireDecisions(1000, 'pairing')).map((d) => d.code)).toEqual(['c1'])
      expect((await store.listDecisions({ kind: 'permission', status: 'open' })).map((d) => d.code)).toEqual([
        'c2',
      ])
      expect(await store.openDecisionsByCode('pairing', 'c1', 0)).toEqual([])
    })

    it('keeps what was asked, and finds an open decision by the code a person types', async ({ store }) => {
      const d = await store.openDecision({
        kind: 'permission',
        code: 'abcde',
        owner: 'session:a',
        request: { tool: 'Bash', command: 'ls' },
        expiresAt: 5000,
      })
      expect(await store.openDecisionsByCode('permission', 'abcde', 4999)).toEqual([d])
      expect(await store.openDecisionsByCode('permission', 'abcde', 5000)).toEqual([])
      expect(await store.openDecisionsByCode('pairing', 'abcde', 0)).toEqual([])
      expect(await store.getDecision(d.id)).toEqual(d)
      expect(await store.getDecision('dec_missing')).toBeNull()
    })

    it('hands an answer on once: unrelayed until marked relayed', async ({ store }) => {
      const d = await store.openDecision(ask('question', 'q1', 'session:a'))
      await store.openDecision(ask('question', 'q2', 'session:a'))
      await store.answerDecision(d.id, { text: 'yes' }, 'alice')
      const unrelayed = await store.unrelayedAnswers('question', 'session:a')
      expect(unrelayed.map((u) => [u.code, u.answer])).toEqual([['q1', { text: 'yes' }]])
      expect(await store.unrelayedAnswers('question', 'session:b')).toEqual([])
      expect(await store.markRelayed(d.id)).toBe(true)
      expect(await store.unrelayedAnswers('question', 'session:a')).toEqual([])
      expect(await store.markRelayed(d.id)).toBe(false) // one relay hands it on
    })

    it('cancels only what is still open, and an answer after that is refused', async ({ store }) => {
      const answered = await store.openDecision(ask('permission', 'a1', 'session:a'))
      const stillOpen = await store.openDecision(ask('permission', 'a2', 'session:a'))
      const elsewhere = await store.openDecision(ask('permission', 'b1', 'session:b'))
      await store.answerDecision(answered.id, { behavior: 'allow' }, 'alice')
      expect(await store.cancelOpenDecisions('permission', 'session:a')).toBe(1)
      expect((await store.getDecision(answered.id))?.status).toBe('answered')
      expect((await store.getDecision(stillOpen.id))?.status).toBe('cancelled')
      expect(await store.answerDecision(stillOpen.id, { behavior: 'allow' }, 'bob')).toBeNull()
      await store.cancelDecisions([elsewhere.id, answered.id])
      expect((await store.getDecision(elsewhere.id))?.status).toBe('cancelled')
      expect((await store.getDecision(answered.id))?.status).toBe('answered')
    })

    it('lists decisions by kind and status', async ({ store }) => {
      const pairing = await store.openDecision(ask('pairing', 'p1'))
      const permission = await store.openDecision(ask('permission', 'x1'))
      await store.answerDecision(permission.id, { behavior: 'deny' }, 'alice')
      expect((await store.listDecisions({ kind: 'pairing' })).map((d) => d.id)).toEqual([pairing.id])
      expect((await store.listDecisions({ status: 'answered' })).map((d) => d.id)).toEqual([permission.id])
      expect((await store.listDecisions({})).map((d) => d.id).sort()).toEqual(
        [pairing.id, permission.id].sort(),
      )
      expect((await store.listDecisions({ kind: 'permission', status: 'open' })).map((d) => d.id)).toEqual([])
    })

    it('finds the newest decision of a kind, code and owner, however many came after it', async ({
      store,
    }) => {
      const settled = await store.openDecision(ask('permission', 'c1', 'ch_1'))
      await store.answerDecision(settled.id, { behavior: 'allow' }, 'alice')
      // Newest is by creation time, in milliseconds: the next one is made in a later one.
      const at = Date.now()
      while (Date.now() === at) await new Promise((resolve) => setTimeout(resolve, 1))
      // The code given again once its decision was settled, then 500 newer decisions of the kind.
      const again = await store.openDecision(ask('permission', 'c1', 'ch_1'))
      const otherOwner = await store.openDecision(ask('permission', 'c1', 'ch_2'))
      for (let i = 0; i < 500; i++) await store.openDecision(ask('permission', `n${i}`, 'ch_3'))
      expect((await store.latestDecision('permission', 'c1', 'ch_1'))?.id).toBe(again.id)
      expect((await store.latestDecision('permission', 'c1', 'ch_2'))?.id).toBe(otherOwner.id)
      expect(await store.latestDecision('question', 'c1', 'ch_1')).toBeNull()
    })
  })
}
