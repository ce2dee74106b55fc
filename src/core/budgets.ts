// A project's daily budget: how much its sessions may cost in a day (UTC), and at which shares of it
// operators who chose budget notices are told. At the whole of it, a routine of the project starts
// no run and a driven session of it is stopped (hub/sessions/usage-meter.ts). No Node imports.
import * as z from 'zod'

/** The shares of a budget operators are told of unless the budget names its own. */
export const DEFAULT_THRESHOLDS = [50, 80, 100]

export const budgetSchema = z
  .object({
    dailyUsd: z
      .number({ error: 'dailyUsd is a number of dollars' })
      .positive('dailyUsd is more than 0')
      .max(1_000_000, 'dailyUsd is at most 1000000'),
    thresholds: z
      .array(
        z
          .number()
          .int('a threshold is a whole percent')
          .min(1, 'a threshold is at least 1 (%)')
          .max(100, 'a threshold is at most 100 (%)'),
      )
      .max(10, 'at most 10 thresholds')
      .default(DEFAULT_THRESHOLDS)
      .transform((ts) => [...new Set(ts)].sort((a, b) => a - b)),
  })
  .strict()
export type BudgetInput = z.input<typeof budgetSchema>

/** A project's name as the budget routes take it in their path. */
export const budgetProjectSchema = z
  .string()
  .min(1, 'name a project')
  .max(200, 'a project is at most 200 characters')

export interface Budget {
  project: string
  dailyUsd: number
  /** Percents of dailyUsd, smallest first. */
  thresholds: number[]
  setBy: string
  updatedAt: number
}

/** `5/day`, `$5`, `12.50/day`, as `switchboard budget set` takes an amount; null when it is not one. */
export function dailyAmountOf(text: string): number | null {
  const m = /^\$?(\d+(?:\.\d+)?)(?:\/day)?$/.exec(text.trim())
  return m ? Number(m[1]) : null
}

/** The UTC day of `at`, YYYY-MM-DD: the day a budget counts. */
export function budgetDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10)
}

/** When the UTC day of `at` began. */
export function startOfBudgetDay(at: number): number {
  return Date.parse(`${budgetDay(at)}T00:00:00Z`)
}

/** The thresholds `spent` has reached, of a budget's (a 100 is the limit). */
export function thresholdsReached(budget: Pick<Budget, 'dailyUsd' | 'thresholds'>, spent: number): number[] {
  return budget.thresholds.filter((t) => spent >= (budget.dailyUsd * t) / 100 - 1e-9)
}
