// The usage area, on either store: a row per reported turn, grouped in one query per grouping, and
// the projects' budgets with the notices claimed of them.
import type { Budget } from '../../core/budgets.js'
import { QUARTER_MS, type UsageTotal } from '../../core/usage.js'
import type { Row } from '../rows.js'
import type { StoredGrouping, UsageStore } from '../usage.js'
import type { Sql } from './sql.js'

/** The column (or expression) each grouping reads: a fixed list, never text from a caller. */
const GROUP_BY: Record<StoredGrouping, string> = {
  project: 'project',
  session: 'session_id',
  agent: 'agent',
  routine: 'routine',
  operator: 'operator',
  // Integer division on both databases: at is an INTEGER (BIGINT) of milliseconds.
  quarter: `(at / ${QUARTER_MS})`,
}

// SUM of a BIGINT is a NUMERIC on Postgres, which pg gives as a string: every sum is read with Number.
const toTotal = (r: Row): UsageTotal => ({
  key: r.key === null || r.key === undefined ? null : String(r.key),
  costUsd: Math.round(Number(r.cost_usd) * 1e6) / 1e6,
  unpricedTurns: Number(r.unpriced),
  turns: Number(r.turns),
  inputTokens: Number(r.input_tokens),
  outputTokens: Number(r.output_tokens),
  cacheReadTokens: Number(r.cache_read_tokens),
  cacheWriteTokens: Number(r.cache_write_tokens),
})

const toBudget = (r: Row): Budget => ({
  project: r.project as string,
  dailyUsd: Number(r.daily_usd),
  thresholds: JSON.parse(r.thresholds as string),
  setBy: r.set_by as string,
  updatedAt: Number(r.updated_at),
})

/** Dearest first; among equals, by key, none last: the same order from both databases. */
function byCost(a: UsageTotal, b: UsageTotal): number {
  if (a.costUsd !== b.costUsd) return b.costUsd - a.costUsd
  if (a.key === b.key) return 0
  if (a.key === null) return 1
  if (b.key === null) return -1
  return a.key < b.key ? -1 : 1
}

export function usageStore(sql: Sql): UsageStore {
  return {
    async recordUsage(e) {
      await sql.run(
        `INSERT INTO usage (session_id, at, project, agent, routine, operator, cost_usd,
           input_tokens, output_tokens, cache_read_tokens, cache_write_tokens)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          e.sessionId,
          e.at,
          e.project,
          e.agent,
          e.routine,
          e.operator,
          e.costUsd,
          e.inputTokens,
          e.outputTokens,
          e.cacheReadTokens,
          e.cacheWriteTokens,
        ],
      )
    },

    async usageTotals({ by, since, until, project }) {
      const key = GROUP_BY[by]
      const params: unknown[] = [since, until ?? Number.MAX_SAFE_INTEGER]
      if (project !== undefined) params.push(project)
      const rows = await sql.all(
        `SELECT ${key} AS key, COUNT(*) AS turns,
           COALESCE(SUM(cost_usd), 0) AS cost_usd,
           SUM(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END) AS unpriced,
           SUM(input_tokens) AS input_tokens, SUM(output_tokens) AS output_tokens,
           SUM(cache_read_tokens) AS cache_read_tokens, SUM(cache_write_tokens) AS cache_write_tokens
         FROM usage WHERE at >= $1 AND at < $2${project !== undefined ? ' AND project = $3' : ''}
         GROUP BY ${key}`,
        params,
      )
      return rows.map(toTotal).sort(byCost)
    },

    async setBudget(b) {
      const now = Date.now()
      await sql.run(
        `INSERT INTO budgets (project, daily_usd, thresholds, set_by, updated_at)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (project) DO UPDATE SET daily_usd = excluded.daily_usd,
           thresholds = excluded.thresholds, set_by = excluded.set_by, updated_at = excluded.updated_at`,
        [b.project, b.dailyUsd, JSON.stringify(b.thresholds), b.setBy, now],
      )
      return { ...b, updatedAt: now }
    },

    async getBudget(project) {
      const r = await sql.get('SELECT * FROM budgets WHERE project = $1', [project])
      return r ? toBudget(r) : null
    },

    async listBudgets() {
      return (await sql.all('SELECT * FROM budgets ORDER BY project COLLATE "BINARY"')).map(toBudget)
    },

    async removeBudget(project) {
      return (await sql.run('DELETE FROM budgets WHERE project = $1', [project])) > 0
    },

    async claimBudgetNotice(project, day, threshold) {
      const claimed = await sql.run(
        `INSERT INTO budget_notices (project, day, threshold, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project, day, threshold) DO NOTHING`,
        [project, day, threshold, Date.now()],
      )
      return claimed > 0
    },
  }
}
