// What a rule matches: a tool and either its exact input, a prefix of its shell command, or a glob
// over the whole command (a file tool's path). Defined once here, for the hub that applies rules,
// the preview that shows what a rule would have matched, and the page that says a rule. No zod here,
// so the page can import it; the schema a new rule is checked with is rule-schema.ts.
import { pathOf, readableCall } from './readable-call.js'

export const SHELL_TOOLS = ['Bash', 'run_shell_command', 'bash', 'shell'] as const
export const FILE_TOOLS = new Set([
  'Edit',
  'replace',
  'edit',
  'MultiEdit',
  'Write',
  'write_file',
  'write',
  'Read',
  'read_file',
  'read',
  'NotebookEdit',
])
export const isShell = (tool: string) => (SHELL_TOOLS as readonly string[]).includes(tool)

export const ruleMatchKinds = ['exact', 'prefix', 'glob'] as const
export type RuleMatch = (typeof ruleMatchKinds)[number]
export type RuleEffect = 'allow' | 'deny'

export interface RuleShape {
  toolName: string
  match: RuleMatch
  /** The prefix or glob; null for an exact rule. */
  pattern: string | null
  /** The exact input; null for a pattern rule. */
  input: Record<string, unknown> | null
  effect: RuleEffect
}

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

/**
 * What ends one shell command and starts another (or runs one inside): a pattern that allows must
 * not reach past one its own text does not have, or `npm test` would allow `npm test; curl x | sh`.
 */
const CONTROL = /;|&|\||`|\$\(|\n|\r/

/** The text a pattern is matched against: the shell command, or the file's path. */
function subjectOf(tool: string, input: Record<string, unknown>): string | null {
  const call = readableCall(tool, input)
  if (call?.kind === 'shell') return call.command
  if (FILE_TOOLS.has(tool)) return pathOf(input) || null
  return null
}

const literal = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')

function globMatches(glob: string, subject: string, strict: boolean): boolean {
  // `*` is any run of characters; for an allow rule, any run without a control operator.
  const any = strict ? '(?:(?!\\$\\()[^;&|`\\n\\r])*' : '[\\s\\S]*'
  return new RegExp(`^${glob.split('*').map(literal).join(any)}$`).test(subject)
}

function prefixMatches(prefix: string, subject: string, strict: boolean): boolean {
  if (!subject.startsWith(prefix)) return false
  const rest = subject.slice(prefix.length)
  // On a word boundary: `npm test` is not a prefix of `npm testify`.
  if (rest && !/^\s/.test(rest) && !/\s$/.test(prefix)) return false
  return !(strict && CONTROL.test(rest))
}

/** Whether the rule covers this call (its tool, and its input, prefix or glob); not its scope. */
export function matchesRule(rule: RuleShape, tool: string, input: Record<string, unknown> | null): boolean {
  if (rule.toolName !== tool || !input) return false
  if (rule.match === 'exact') return rule.input !== null && canonicalJson(rule.input) === canonicalJson(input)
  const subject = subjectOf(tool, input)
  if (subject === null || rule.pattern === null) return false
  const strict = rule.effect === 'allow'
  return rule.match === 'prefix'
    ? isShell(tool) && prefixMatches(rule.pattern, subject, strict)
    : globMatches(rule.pattern, subject, strict)
}

/** A rule as a person reads it: `Bash starting with "npm test"`, `Bash matching "rm *"`. */
export function ruleText(rule: Pick<RuleShape, 'toolName' | 'match' | 'pattern'>): string {
  if (rule.match === 'exact' || rule.pattern === null) return `${rule.toolName} with this exact input`
  return `${rule.toolName} ${rule.match === 'prefix' ? 'starting with' : 'matching'} ${JSON.stringify(rule.pattern)}`
}
