// The Store's rules area: rules people made, which allow or deny a tool call before a prompt is
// shown (hub/people/rules.ts): by its exact input, or by a pattern (core/rule-match.ts).
import type { RuleEffect, RuleMatch } from '../core/rule-match.js'
import type { RuleScope } from '../core/rule-schema.js'

export type { RuleScope }

export interface Rule {
  id: string
  toolName: string
  match: RuleMatch
  /** The exact input it answers (compared as canonical JSON); null for a pattern rule. */
  input: Record<string, unknown> | null
  /** The prefix or glob; null for an exact rule. */
  pattern: string | null
  effect: RuleEffect
  scope: RuleScope
  /** The session id, the folder or the operator; null for everywhere. */
  scopeValue: string | null
  expiresAt: number | null
  createdBy: string
  createdAt: number
  uses: number
}

export interface RuleStore {
  addRule(rule: Omit<Rule, 'createdAt' | 'uses'>): Promise<Rule>
  /** Rules for this tool that have not expired at `now`, oldest first. */
  rulesFor(toolName: string, now: number): Promise<Rule[]>
  listRules(): Promise<Rule[]>
  removeRule(id: string): Promise<boolean>
  /** One more prompt answered by this rule. */
  countRuleUse(id: string): Promise<void>
}
