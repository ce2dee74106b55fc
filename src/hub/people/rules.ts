// Rules people made: "always allow" this exact tool call (made from a prompt), or allow or deny a
// tool's calls by a prefix or glob of their command or path (core/rule-match.ts) — in one session,
// a project's folder, the sessions one operator starts, or everywhere, for a while or until revoked. The hub checks them before it puts
// a prompt to anyone, every deny rule before any allow rule; a call a rule answers is recorded as a
// decision answered by that rule.

import { invalid } from '../../core/errors.js'
import { newId } from '../../core/ids.js'
import { matchesRule } from '../../core/rule-match.js'
import { type PatternRule, rulePatternSchema } from '../../core/rule-schema.js'
import { previewedInput } from '../../core/tool-call-text.js'
import type { Decision, Rule, RuleScope, Store } from '../../store/store.js'

/** The input a permission decision asks about: a driven session's input, or a relay's preview. */
export function inputOf(request: Record<string, unknown>): Record<string, unknown> | null {
  if (request.input && typeof request.input === 'object') return request.input as Record<string, unknown>
  // A preview cut short is no exact input: no rule can be made from it.
  return previewedInput(typeof request.input_preview === 'string' ? request.input_preview : null)
}

export { canonicalJson } from '../../core/rule-match.js'

/** How many of the latest answered prompts a preview reads. */
export const PREVIEW_DECISIONS = 200

export interface CallSite {
  session: string
  folder: string | null
  /** Who started the session (an operator's name), when the hub started it for someone. */
  startedBy: string | null
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

  /** The rule that answers this call here, if one does: any deny rule before any allow rule. */
  async answering(
    toolName: string,
    input: Record<string, unknown> | null,
    where: CallSite,
  ): Promise<Rule | null> {
    if (!input) return null
    const applies = (await this.store.rulesFor(toolName, Date.now())).filter(
      (rule) => inScope(rule, where) && matchesRule(rule, toolName, input),
    )
    return applies.find((r) => r.effect === 'deny') ?? applies[0] ?? null
  }

  /** A pattern rule a person wrote (validated here too, so no caller can skip it). */
  async make(wanted: PatternRule, by: string): Promise<Rule> {
    const parsed = rulePatternSchema.safeParse(wanted)
    if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'not a rule')
    const r = parsed.data
    return this.store.addRule({
      id: newId('rule'),
      toolName: r.toolName,
      match: r.match,
      input: null,
      pattern: r.pattern,
      effect: r.effect,
      scope: r.scope,
      scopeValue: scopeValueOf(r.scope, r.scopeValue ?? null, by),
      expiresAt: r.expiresInMinutes ? Date.now() + r.expiresInMinutes * 60_000 : null,
      createdBy: by,
    })
  }

  /**
   * The latest answered prompts (up to `last`, newest first) a rule would have matched, so a person
   * sees what it covers before saving it. Its scope counts only where the decision says where it ran.
   */
  async preview(
    wanted: PatternRule,
    options: {
      last?: number
      folderOf?: (owner: string) => Promise<string | null>
      startedByOf?: (owner: string) => Promise<string | null>
      /** Who previews it: an operator rule with no operator named is theirs. */
      by?: string
    } = {},
  ): Promise<{ matched: Decision[]; read: number }> {
    const parsed = rulePatternSchema.safeParse(wanted)
    if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? 'not a rule')
    const rule = {
      ...parsed.data,
      scopeValue: scopeValueOf(parsed.data.scope, parsed.data.scopeValue ?? null, options.by ?? ''),
      input: null,
    }
    const answered = (await this.store.listDecisions({ kind: 'permission', status: 'answered' })).slice(
      0,
      options.last ?? PREVIEW_DECISIONS,
    )
    const matched: Decision[] = []
    for (const d of answered) {
      const tool = d.request.tool_name
      if (typeof tool !== 'string' || !matchesRule(rule, tool, inputOf(d.request))) continue
      const folder = rule.scope === 'folder' ? ((await options.folderOf?.(d.owner)) ?? null) : null
      const startedBy = rule.scope === 'operator' ? ((await options.startedByOf?.(d.owner)) ?? null) : null
      if (inScope(rule, { session: d.owner, folder, startedBy })) matched.push(d)
    }
    return { matched, read: answered.length }
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
      match: 'exact',
      input,
      pattern: null,
      effect: 'allow',
      scope,
      scopeValue:
        scope === 'session'
          ? decision.owner
          : scope === 'folder'
            ? options.folder
            : scopeValueOf(scope, null, options.by),
      expiresAt: options.expiresInMinutes ? Date.now() + options.expiresInMinutes * 60_000 : null,
      createdBy: options.by,
    })
  }
}

/** What a scope names: nothing for everywhere; for an operator rule, its maker unless it names one. */
function scopeValueOf(scope: RuleScope, named: string | null, by: string): string | null {
  if (scope === 'everywhere') return null
  if (scope === 'operator') return named ?? by
  return named
}

function inScope(rule: Pick<Rule, 'scope' | 'scopeValue'>, where: CallSite): boolean {
  switch (rule.scope) {
    case 'everywhere':
      return true
    case 'session':
      return rule.scopeValue === where.session
    case 'operator':
      return where.startedBy !== null && rule.scopeValue === where.startedBy
    case 'folder':
      return where.folder !== null && rule.scopeValue === where.folder
  }
}
