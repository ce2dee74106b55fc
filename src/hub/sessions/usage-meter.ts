// What driven sessions cost, counted as they go: each turn's usage as its CLI reported it is stored
// against the session's project, agent, routine and starter (core/usage.ts); then the project's
// daily budget is read: operators who chose budget notices are told of each threshold it reaches
// (once per threshold and day, whichever hub counts it), and at the whole of it the session is
// stopped. A cost is only known at a turn's end, so the turn that crosses the limit finishes; no
// session of the project starts or takes a message again that day (overBudget).

import type { CliLine } from '../../claude/messages.js'
import { drivenAgentOf } from '../../core/agents.js'
import { type Budget, budgetDay, startOfBudgetDay, thresholdsReached } from '../../core/budgets.js'
import type { Logger } from '../../core/log.js'
import { formatUsd } from '../../core/money.js'
import { usageOfResult } from '../../core/usage.js'
import type { SessionRecord, Store } from '../../store/store.js'
import type { Hub } from '../core/hub.js'

/** A project over its day's budget: what it spent and what it may. */
export interface OverBudget {
  project: string
  spent: number
  budget: Budget
}

/** "project api is over its daily budget: $5.20 of $5.00 spent today (UTC)". */
export function overBudgetLine(over: OverBudget): string {
  return `project ${over.project} is over its daily budget: ${formatUsd(over.spent)} of ${formatUsd(over.budget.dailyUsd)} spent today (UTC)`
}

/** What a project has spent today (UTC), and its budget; null when it has none. */
export async function projectToday(
  store: Store,
  project: string,
  now = Date.now(),
): Promise<{ spent: number; budget: Budget } | null> {
  const budget = await store.getBudget(project)
  if (!budget) return null
  const [total] = await store.usageTotals({ by: 'project', since: startOfBudgetDay(now), project })
  return { spent: total?.costUsd ?? 0, budget }
}

/** The project's day as its budget sees it, when it has spent the whole; null otherwise. */
export async function overBudget(
  store: Store,
  project: string | null,
  now = Date.now(),
): Promise<OverBudget | null> {
  if (!project) return null
  const today = await projectToday(store, project, now)
  if (!today || today.spent < today.budget.dailyUsd - 1e-9) return null
  return { project, ...today }
}

export class UsageMeter {
  constructor(
    private readonly store: Store,
    private readonly hub: Hub,
    private readonly log: Logger,
    /** Stops a session's CLI, saying why. */
    private readonly stop: (id: string, reason: string) => Promise<unknown>,
  ) {}

  /** A turn of the session ended with this result line: its usage counted, its project's budget read. */
  async turnEnded(id: string, line: CliLine): Promise<void> {
    const usage = usageOfResult(line)
    const session = await this.store.getSession(id)
    if (!usage || !session) return
    const at = Date.now()
    await this.store.recordUsage({
      sessionId: session.id,
      at,
      project: session.project,
      agent: drivenAgentOf(session.config),
      routine: session.routine,
      operator: session.startedBy,
      ...usage,
    })
    if (session.project && usage.costUsd) await this.readBudget(session, session.project, at)
  }

  private async readBudget(session: SessionRecord, project: string, at: number): Promise<void> {
    const today = await projectToday(this.store, project, at)
    if (!today) return
    const { spent, budget } = today
    const day = budgetDay(at)
    for (const threshold of thresholdsReached(budget, spent)) {
      if (!(await this.store.claimBudgetNotice(project, day, threshold))) continue
      await this.hub.decisions.toOperators({
        kind: 'notice',
        body: {
          id: `budget:${project}:${day}:${threshold}`,
          kind: 'budget',
          project,
          cost_usd: spent,
          text: `project ${project} has spent ${formatUsd(spent)} today (UTC): ${threshold}% of its daily budget of ${formatUsd(budget.dailyUsd)}`,
        },
      })
    }
    if (spent < budget.dailyUsd - 1e-9) return
    const reason = overBudgetLine({ project, spent, budget })
    this.log.warn(
      { session: session.id, project, spent, budget: budget.dailyUsd },
      'session stopped at its project’s daily budget',
    )
    await this.stop(session.id, reason).catch(() => {})
    // Every operator hears of it, whatever notices they chose: work was stopped for them.
    await this.hub.decisions.toOperators(
      {
        kind: 'notice',
        body: {
          id: `budget-stop:${session.id}:${day}`,
          kind: 'budget',
          session: `session:${session.id}`,
          project,
          cost_usd: spent,
          text: `session ${session.id} stopped: ${reason}`,
        },
      },
      { everyone: true },
    )
  }
}
