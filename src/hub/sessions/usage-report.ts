// Usage as the API answers it: totals one way since a time, a day's in the asked time zone (the
// store's quarter hours folded into its days), and the budgets with what each project spent today.
import type { BudgetView } from '../../core/api/contract.js'
import { startOfBudgetDay } from '../../core/budgets.js'
import { invalid } from '../../core/errors.js'
import { quartersToDays, sinceOf, type UsageQuery, type UsageReport } from '../../core/usage.js'
import type { Store } from '../../store/store.js'

export async function usageReport(store: Store, query: UsageQuery, now = Date.now()): Promise<UsageReport> {
  const since = sinceOf(query.since, now)
  if (since === null) throw invalid(`since: cannot read "${query.since}"`)
  const totals =
    query.by === 'day'
      ? quartersToDays(await store.usageTotals({ by: 'quarter', since }), query.tz)
      : await store.usageTotals({ by: query.by, since })
  return { by: query.by, since, tz: query.tz, totals }
}

/** Every budget, with what its project spent today (UTC): one query for all of them. */
export async function budgetViews(store: Store, now = Date.now()): Promise<BudgetView[]> {
  const budgets = await store.listBudgets()
  if (!budgets.length) return []
  const today = await store.usageTotals({ by: 'project', since: startOfBudgetDay(now) })
  const spent = new Map(today.map((t) => [t.key, t.costUsd]))
  return budgets.map((b) => ({ ...b, spentToday: spent.get(b.project) ?? 0 }))
}
