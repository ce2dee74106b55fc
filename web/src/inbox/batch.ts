// Open permission prompts that ask for exactly the same thing (same tool, same input, its JSON read
// with sorted keys) can be approved together from the Inbox.
import type { DecisionRow } from '../../../src/core/api/rows.ts'
import { requestText, ruleInputOf } from '../decisions/decision-text.ts'

/** JSON with every object's keys sorted, so the same input always reads the same. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v
    const sorted: Record<string, unknown> = {}
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k]
    return sorted
  })
}

/** What makes two permission prompts identical, or null when a prompt has no whole input to compare. */
export function identityOf(d: DecisionRow): string | null {
  if (d.kind !== 'permission' || d.status !== 'open') return null
  const tool = requestText(d, 'tool_name')
  const input = ruleInputOf(d)
  if (tool === null || input === null) return null
  return `${tool}\n${stableJson(input)}`
}

/** Groups of two or more identical prompts, each in the order given, keyed by its first prompt's id. */
export function identicalGroups(decisions: DecisionRow[]): Map<string, DecisionRow[]> {
  const byIdentity = new Map<string, DecisionRow[]>()
  for (const d of decisions) {
    const identity = identityOf(d)
    if (identity === null) continue
    const group = byIdentity.get(identity)
    if (group) group.push(d)
    else byIdentity.set(identity, [d])
  }
  const groups = new Map<string, DecisionRow[]>()
  for (const group of byIdentity.values()) {
    const first = group[0]
    if (first && group.length >= 2) groups.set(first.id, group)
  }
  return groups
}
