// The rules area, on either store: allow and deny rules, an exact rule's input as JSON (a pattern
// rule's as JSON null: the column predates patterns and stays NOT NULL on both stores).
import { toRule } from '../rows.js'
import type { Rule, RuleStore } from '../rules.js'
import type { Sql } from './sql.js'

export function ruleStore(sql: Sql): RuleStore {
  return {
    async addRule(input) {
      const rule: Rule = { ...input, createdAt: Date.now(), uses: 0 }
      await sql.run(
        `INSERT INTO rules (id, tool_name, input, scope, scope_value, expires_at, created_by, created_at, uses,
           match_kind, pattern, effect)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $10, $11)`,
        [
          rule.id,
          rule.toolName,
          JSON.stringify(rule.input),
          rule.scope,
          rule.scopeValue,
          rule.expiresAt,
          rule.createdBy,
          rule.createdAt,
          rule.match,
          rule.pattern,
          rule.effect,
        ],
      )
      return rule
    },
    async rulesFor(toolName, now) {
      const rows = await sql.all(
        `SELECT * FROM rules WHERE tool_name = $1 AND (expires_at IS NULL OR expires_at > $2)
         ORDER BY created_at, id COLLATE "BINARY"`,
        [toolName, now],
      )
      return rows.map(toRule)
    },
    async listRules() {
      return (await sql.all('SELECT * FROM rules ORDER BY created_at, id COLLATE "BINARY"')).map(toRule)
    },
    async removeRule(id) {
      return (await sql.run('DELETE FROM rules WHERE id = $1', [id])) > 0
    },
    async countRuleUse(id) {
      // Atomic in one statement: a concurrent hub's increment waits on the row lock, none is lost.
      await sql.run('UPDATE rules SET uses = uses + 1 WHERE id = $1', [id])
    },
  }
}
