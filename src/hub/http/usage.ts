// What it costs (issue 36): usage totals for operators, and projects' daily budgets, set and
// removed with the admin token (at a budget's limit, sessions stop and routines start nothing).
import { Hono } from 'hono'
import { budgetProjectSchema } from '../../core/budgets.js'
import { describeZod, invalid, notFound } from '../../core/errors.js'
import { budgetViews, usageReport } from '../sessions/usage-report.js'
import { defineRoute } from './define.js'
import type { HubEnv } from './env.js'
import type { HubParts } from './parts.js'
import { nameOf } from './principal.js'

/** The project a budget route names, checked as its body would be. */
function projectParam(value: string): string {
  const parsed = budgetProjectSchema.safeParse(value)
  if (!parsed.success) throw invalid(`project: ${describeZod(parsed.error)}`)
  return parsed.data
}

export function usageRoutes(parts: HubParts): Hono<HubEnv> {
  const app = new Hono<HubEnv>()
  const { creds, hub } = parts

  defineRoute(app, creds, 'usage', (_c, { query }) => usageReport(hub.store, query))

  defineRoute(app, creds, 'budgets', async () => ({ budgets: await budgetViews(hub.store) }))

  defineRoute(app, creds, 'setBudget', async (_c, { params, body, who }) => ({
    budget: await hub.store.setBudget({ project: projectParam(params.project), ...body, setBy: nameOf(who) }),
  }))

  defineRoute(app, creds, 'removeBudget', async (_c, { params }) => {
    const project = projectParam(params.project)
    if (!(await hub.store.removeBudget(project))) throw notFound(`project ${project} has no budget`)
    return { removed: project }
  })
  return app
}
