// The Store's rules area: "always allow" rules people made, applied by the hub before a prompt is
// shown (hub/people/rules.ts).
export type RuleScope = 'session' | 'folder' | 'everywhere'

export interface Rule {
  id: string
  toolName: string
  /** The exact input it allows (compared as canonical JSON). */
  input: Record<string, unknown>
  scope: RuleScope
  /** The session id or the folder; null for everywhere. */
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
