// The rules area on Postgres: "always allow" rules, their input as canonical JSON.

import { toRule } from '../rows.js'
import type { Rule, RuleStore } from '../rules.js'
import type { PostgresDb } from './db.js'

// Ties on created_at go by id in COLLATE "C": SQLite's byte order, whatever the database's locale.
export function postgresRuleStore(db: PostgresDb): RuleStore {
  return {
    async addRule(input) {
      const rule: Rule = { ...input, createdAt: Date.now(), uses: 0 }
      await db.query(
        `INSERT INTO rules (id, tool_name, input, scope, scope_value, expires_at, created_by, created_at, uses)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0)`,
        [
          rule.id,
          rule.toolName,
          JSON.stringify(rule.input),
          rule.scope,
          rule.scopeValue,
          rule.expiresAt,
          rule.createdBy,
          rule.createdAt,
        ],
      )
      return rule
    },
    async rulesFor(toolName, now) {
      const rows = await db.rows(
        `SELECT * FROM rules WHERE tool_name = $1 AND (expires_at IS NULL OR expires_at > $2)
         ORDER BY created_at, id COLLATE "C"`,
        [toolName, now],
      )
      return rows.map(toRule)
    },
    async listRules() {
      return (await db.rows('SELECT * FROM rules ORDER BY created_at, id COLLATE "C"')).map(toRule)
    },
    async removeRule(id) {
      const { rowCount } = await db.query('DELETE FROM rules WHERE id = $1', [id])
      return (rowCount ?? 0) > 0
    },
    async countRuleUse(id) {
      // Atomic in one statement: a concurrent hub's increment waits on the row lock, none is lost.
      await db.query('UPDATE rules SET uses = uses + 1 WHERE id = $1', [id])
    },
  }
}
