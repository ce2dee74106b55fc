// The rules area in SQLite: "always allow" rules, their input as canonical JSON.
import type Database from 'better-sqlite3'
import { type Row, toRule } from '../rows.js'
import type { Rule, RuleStore } from '../rules.js'

export function sqliteRuleStore(db: Database.Database): RuleStore {
  return {
    async addRule(input) {
      const rule: Rule = { ...input, createdAt: Date.now(), uses: 0 }
      db.prepare(
        `INSERT INTO rules (id, tool_name, input, scope, scope_value, expires_at, created_by, created_at, uses)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)`,
      ).run(
        rule.id,
        rule.toolName,
        JSON.stringify(rule.input),
        rule.scope,
        rule.scopeValue,
        rule.expiresAt,
        rule.createdBy,
        rule.createdAt,
      )
      return rule
    },
    async rulesFor(toolName, now) {
      const rows = db
        .prepare(
          'SELECT * FROM rules WHERE tool_name = ? AND (expires_at IS NULL OR expires_at > ?) ORDER BY created_at, id',
        )
        .all(toolName, now) as Row[]
      return rows.map(toRule)
    },
    async listRules() {
      return (db.prepare('SELECT * FROM rules ORDER BY created_at, id').all() as Row[]).map(toRule)
    },
    async removeRule(id) {
      return db.prepare('DELETE FROM rules WHERE id = ?').run(id).changes > 0
    },
    async countRuleUse(id) {
      db.prepare('UPDATE rules SET uses = uses + 1 WHERE id = ?').run(id)
    },
  }
}
