// The UsageStore's contract: turns recorded as their CLIs reported them, summed one way per query
// (unpriced turns counted apart, never as free), and budgets with their notices claimed once.
import { describe, expect } from 'vitest'
import { QUARTER_MS, type UsageEntry } from '../core/usage.js'
import { type OpenStore, storeTest } from './contract.js'

const DAY = 86_400_000
const T0 = Date.parse('2026-11-20T00:00:00Z')

const turn = (extra: Partial<UsageEntry>): UsageEntry => ({
  sessionId: 'ses_a',
  at: T0,
  project: 'api',
  agent: 'claude',
  routine: null,
  operator: 'ann',
  costUsd: 0.1,
  inputTokens: 100,
  outputTokens: 10,
  cacheReadTokens: 1,
  cacheWriteTokens: 2,
  ...extra,
})

export function describeUsageStoreContract(open: OpenStore): void {
  const it = storeTest(open)

  describe('UsageStore', () => {
    it('sums turns per project, dearest first, counting unpriced turns apart', async ({ store }) => {
      await store.recordUsage(turn({ costUsd: 0.1 }))
      await store.recordUsage(turn({ costUsd: 0.2, at: T0 + 1_000 }))
      await store.recordUsage(turn({ sessionId: 'ses_b', project: 'web', costUsd: 1.25 }))
      await store.recordUsage(
        turn({ sessionId: 'ses_c', project: 'web', agent: 'codex', costUsd: null, inputTokens: 5_000 }),
      )
      await store.recordUsage(turn({ sessionId: 'ses_d', project: null, costUsd: 0.01 }))
      const totals = await store.usageTotals({ by: 'project', since: T0 })
      expect(totals).toEqual([
        {
          key: 'web',
          costUsd: 1.25,
          unpricedTurns: 1,
          turns: 2,
          inputTokens: 5_100,
          outputTokens: 20,
          cacheReadTokens: 2,
          cacheWriteTokens: 4,
        },
        expect.objectContaining({ key: 'api', costUsd: 0.3, unpricedTurns: 0, turns: 2, inputTokens: 200 }),
        expect.objectContaining({ key: null, costUsd: 0.01, turns: 1 }),
      ])
      const byAgent = await store.usageTotals({ by: 'agent', since: T0 })
      expect(byAgent.map((t) => [t.key, t.turns, t.unpricedTurns])).toEqual([
        ['claude', 4, 0],
        ['codex', 1, 1],
      ])
    })

    it('groups by session, routine and operator, within the time asked, for one project', async ({
      store,
    }) => {
      await store.recordUsage(turn({ at: T0 - 1 }))
      await store.recordUsage(turn({ at: T0, routine: 'triage', operator: null, sessionId: 'ses_r' }))
      await store.recordUsage(turn({ at: T0 + DAY, costUsd: 0.5 }))
      await store.recordUsage(turn({ at: T0 + DAY, project: 'web', costUsd: 9 }))
      expect(
        (await store.usageTotals({ by: 'session', since: T0, project: 'api' })).map((t) => [
          t.key,
          t.costUsd,
        ]),
      ).toEqual([
        ['ses_a', 0.5],
        ['ses_r', 0.1],
      ])
      expect(
        (await store.usageTotals({ by: 'routine', since: T0, until: T0 + DAY })).map((t) => t.key),
      ).toEqual(['triage'])
      expect((await store.usageTotals({ by: 'operator', since: T0 })).map((t) => [t.key, t.costUsd])).toEqual(
        [
          ['ann', 9.5],
          [null, 0.1],
        ],
      )
    })

    it('groups by quarter hour, the key the quarter’s number since the epoch', async ({ store }) => {
      await store.recordUsage(turn({ at: T0 + 1 }))
      await store.recordUsage(turn({ at: T0 + QUARTER_MS - 1 }))
      await store.recordUsage(turn({ at: T0 + QUARTER_MS, costUsd: 0.7 }))
      const quarters = await store.usageTotals({ by: 'quarter', since: T0 })
      expect(quarters.map((q) => [q.key, q.costUsd, q.turns])).toEqual([
        [String(T0 / QUARTER_MS + 1), 0.7, 1],
        [String(T0 / QUARTER_MS), 0.2, 2],
      ])
    })

    it('keeps a project’s budget, replaced when set again, and across a restart', async ({
      store,
      reopen,
    }) => {
      expect(await store.getBudget('api')).toBeNull()
      await store.setBudget({ project: 'api', dailyUsd: 5, thresholds: [50, 100], setBy: 'cli' })
      await store.setBudget({ project: 'api', dailyUsd: 7.5, thresholds: [80, 100], setBy: 'ann' })
      await store.setBudget({ project: 'web', dailyUsd: 1, thresholds: [100], setBy: 'cli' })
      const again = await reopen()
      expect(await again.getBudget('api')).toMatchObject({
        dailyUsd: 7.5,
        thresholds: [80, 100],
        setBy: 'ann',
      })
      expect((await again.listBudgets()).map((b) => b.project)).toEqual(['api', 'web'])
      expect(await again.removeBudget('web')).toBe(true)
      expect(await again.removeBudget('web')).toBe(false)
      expect(await again.getBudget('web')).toBeNull()
    })

    it('claims a threshold’s notice once per project and day', async ({ store }) => {
      expect(await store.claimBudgetNotice('api', '2026-11-20', 80)).toBe(true)
      expect(await store.claimBudgetNotice('api', '2026-11-20', 80)).toBe(false)
      expect(await store.claimBudgetNotice('api', '2026-11-20', 100)).toBe(true)
      expect(await store.claimBudgetNotice('api', '2026-11-21', 80)).toBe(true)
      expect(await store.claimBudgetNotice('web', '2026-11-20', 80)).toBe(true)
    })
  })
}
