// "Always allow" rules: a person allowed this exact tool call once and said "always" — in this
// session, this folder or everywhere, for a while or until revoked. The hub checks them before it
// puts a prompt to anyone; a call a rule allows is recorded as a decision answered by that rule.

import { invalid } from '../../core/errors.js'
import { newId } from '../../core/ids.js'
import { previewedInput } from '../../core/tool-call-text.js'
import type { Decision, Rule, RuleScope, Store } from '../../store/store.js'

/** JSON with keys in order, so the same input always reads the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** The input a permission decision asks about: a driven session's input, or a relay's preview. */
export function inputOf(request: Record<string, unknown>): Record<string, unknown> | null {
  if (request.input && typeof request.input === 'object') return request.input as Record<string, unknown>
  // A preview cut short is no exact input: no rule can be made from it.
  return previewedInput(typeof request.input_preview === 'string' ? request.input_preview : null)
}

export interface CallSite {
  session: string
  folder: string | null
}

export class Rules {
  constructor(private readonly store: Store) {}

  list(): Promise<Rule[]> {
    return this.store.listRules()
  }

  /** False when there was no such rule. */
  revoke(id: string): Promise<boolean> {
    return this.store.removeRule(id)
  }

  /** The rule that allows this exact call here, if one does. */
  async allowing(
    toolName: string,
    input: Record<string, unknown> | null,
    where: CallSite,
  ): Promise<Rule | null> {
    if (!input) return null
    const wanted = canonicalJson(input)
    for (const rule of await this.store.rulesFor(toolName, Date.now())) {
      if (canonicalJson(rule.input) !== wanted) continue
      if (rule.scope === 'everywhere') return rule
      if (rule.scope === 'session' && rule.scopeValue === where.session) return rule
      if (rule.scope === 'folder' && where.folder !== null && rule.scopeValue === where.folder) return rule
    }
    return null
  }

  /** A rule for the call a permission decision asks about. */
  async fromDecision(
    decision: Decision,
    scope: RuleScope,
    options: { folder: string | null; expiresInMinutes: number | null; by: string },
  ): Promise<Rule> {
    const input = inputOf(decision.request)
    const toolName = decision.request.tool_name
    if (decision.kind !== 'permission' || typeof toolName !== 'string' || !input)
      throw invalid('only a tool call with its whole input can be always allowed')
    if (scope === 'folder' && !options.folder)
      throw invalid('this prompt’s session has no folder the hub knows')
    return this.store.addRule({
      id: newId('rule'),
      toolName,
      input,
      scope,
      scopeValue: scope === 'everywhere' ? null : scope === 'session' ? decision.owner : options.folder,
      expiresAt: options.expiresInMinutes ? Date.now() + options.expiresInMinutes * 60_000 : null,
      createdBy: options.by,
    })
  }
}
