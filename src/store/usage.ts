// The Store's usage area: one row per turn a driven session's CLI reported (its cost and tokens, and
// what it counts against), the totals of those rows grouped one way, and the projects' daily budgets
// with the notices already sent of them.
import type { Budget } from '../core/budgets.js'
import type { UsageEntry, UsageGroup, UsageTotal } from '../core/usage.js'

/** What the store groups by: a UsageGroup, the day as its quarter hours (core/usage.ts quartersToDays). */
export type StoredGrouping = Exclude<UsageGroup, 'day'> | 'quarter'

export interface UsageStore {
  recordUsage(entry: UsageEntry): Promise<void>
  /**
   * Totals of the turns at or after `since` (and before `until`), one per value of `by`, the dearest
   * first; by `quarter`, the key is the quarter hour's number since the epoch. `project`: only its turns.
   */
  usageTotals(query: {
    by: StoredGrouping
    since: number
    until?: number
    project?: string
  }): Promise<UsageTotal[]>
  /** Sets (or replaces) a project's daily budget. */
  setBudget(budget: Omit<Budget, 'updatedAt'>): Promise<Budget>
  getBudget(project: string): Promise<Budget | null>
  listBudgets(): Promise<Budget[]>
  removeBudget(project: string): Promise<boolean>
  /**
   * Claims the notice of `threshold` of a project's budget on `day`: true for the one caller that
   * claims it first (whichever hub), so each is sent once.
   */
  claimBudgetNotice(project: string, day: string, threshold: number): Promise<boolean>
}
