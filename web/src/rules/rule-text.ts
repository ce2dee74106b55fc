// Rules as people read them: what they allow or deny, where they apply, for how long, how often
// they answered.
import type { RuleRow } from '../../../src/core/api/rows.ts'
import { readableCall } from '../../../src/core/readable-call.ts'
import { ruleText } from '../../../src/core/rule-match.ts'
import { fullTime } from '../lib/time.ts'

export type RuleScope = RuleRow['scope']

/** The choices the Inbox offers, in order (the first is the default). */
export const SCOPE_CHOICES: { value: RuleScope; label: string }[] = [
  { value: 'session', label: 'this session' },
  { value: 'folder', label: 'this project’s folder' },
  { value: 'operator', label: 'sessions I start' },
  { value: 'everywhere', label: 'everywhere' },
]

/** How long a rule lasts; `null` is until revoked. Option values are strings, '' meaning null. */
export const DURATION_CHOICES: { minutes: number | null; label: string }[] = [
  { minutes: 60, label: '1 hour' },
  { minutes: 1440, label: '1 day' },
  { minutes: null, label: 'until revoked' },
]

export const SCOPE_NAME: Record<RuleScope, string> = {
  session: 'Session',
  folder: 'Project folder',
  operator: 'Sessions started by',
  everywhere: 'Everywhere',
}

/** What a scope's value is called in the pattern form (an operator left empty is the rule's maker). */
export const SCOPE_VALUE_LABEL: Record<RuleScope, string> = {
  session: 'Session id',
  folder: 'Folder',
  operator: 'Operator',
  everywhere: '',
}

export function expiryText(expiresAt: number | null, now = Date.now()): string {
  if (expiresAt === null) return 'until revoked'
  return expiresAt <= now ? `expired ${fullTime(expiresAt)}` : `until ${fullTime(expiresAt)}`
}

export function usesText(uses: number): string {
  if (uses === 0) return 'no prompts yet'
  return `${uses} prompt${uses === 1 ? '' : 's'}`
}

/** What a pattern rule does, as its card's heading line says it; null for an exact rule (its input shows). */
export function whatText(rule: Pick<RuleRow, 'toolName' | 'match' | 'pattern' | 'effect'>): string | null {
  if (rule.match === 'exact') return null
  return `${rule.effect === 'deny' ? 'Denies' : 'Allows'} ${ruleText(rule)}`
}

/** A previewed call in one line: `$ <command>`, `edit <path>`, or its input as JSON. */
export function callText(tool: string, input: Record<string, unknown> | null): string {
  if (!input) return '(input not known)'
  const call = readableCall(tool, input)
  if (call?.kind === 'shell') return `$ ${call.command}`
  if (call) return `${call.kind} ${call.path}`
  return JSON.stringify(input)
}
