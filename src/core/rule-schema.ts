// A pattern rule as a person writes it, checked once here for the API and the hub: what it matches
// (core/rule-match.ts), whether it allows or denies, where it applies and for how long.
import * as z from 'zod'
import { FILE_TOOLS, isShell, ruleMatchKinds, SHELL_TOOLS } from './rule-match.js'

/**
 * Where a rule applies: one session, a project's folder, the sessions one operator starts (from the
 * dashboard, a chat or a routine, as the session records who started it), or everywhere.
 */
export const ruleScopes = ['session', 'folder', 'operator', 'everywhere'] as const
export type RuleScope = (typeof ruleScopes)[number]

/** How long a rule lasts: null or absent, until revoked. */
export const expiresInMinutesSchema = z
  .number()
  .int('expiresInMinutes is a whole number of minutes')
  .min(1, 'a rule lasts at least a minute')
  .max(60 * 24 * 365, 'a rule lasts at most a year; leave expiresInMinutes out for until revoked')
  .nullable()
  .optional()

/**
 * A pattern rule as a person writes it (an exact rule is made from a prompt's whole input): the tool,
 * prefix or glob, allow or deny, where it applies (everywhere, a project's folder or one session)
 * and for how long.
 */
export const rulePatternSchema = z
  .object({
    toolName: z.string().trim().min(1, 'the tool the rule is for').max(200),
    match: z.enum(ruleMatchKinds, { message: 'match is one of exact, prefix or glob' }),
    pattern: z.string().max(2000, 'a pattern is at most 2000 characters'),
    effect: z.enum(['allow', 'deny'], { message: 'a rule allows or denies' }),
    scope: z
      .enum(ruleScopes, { message: 'scope is one of session, folder, operator or everywhere' })
      .default('everywhere'),
    /** The session id, the project's folder or the operator (absent: the rule's maker); none for everywhere. */
    scopeValue: z.string().trim().min(1).max(4096).nullable().optional(),
    expiresInMinutes: expiresInMinutesSchema,
  })
  .strict()
  .superRefine((r, ctx) => {
    const say = (message: string, at = 'pattern') => ctx.addIssue({ code: 'custom', message, path: [at] })
    if (r.match === 'exact') return say('an exact rule is made from a prompt, not from a pattern')
    if (!r.pattern.trim()) return say('a prefix or glob rule needs a pattern')
    if (r.match === 'prefix' && !isShell(r.toolName))
      return say(
        `a prefix rule is for a shell tool (${SHELL_TOOLS.join(', ')}); use a glob for a file’s path`,
      )
    if (r.match === 'glob' && !isShell(r.toolName) && !FILE_TOOLS.has(r.toolName))
      return say(
        `a glob rule is for a shell tool or a file tool; ${r.toolName} calls can be ruled only by their exact input`,
      )
    if (r.effect === 'allow' && /^[*\s]*$/.test(r.pattern))
      return say(
        `an allow rule of "${r.pattern.trim()}" alone allows every call of the tool: name the command or path`,
      )
    if (r.scope === 'session' && !r.scopeValue) return say('a session rule names its session', 'scopeValue')
    if (r.scope === 'folder' && !r.scopeValue) return say('a project rule names its folder', 'scopeValue')
    if (r.scope === 'everywhere' && r.scopeValue)
      say('a rule for everywhere names no session or folder', 'scopeValue')
  })
export type PatternRule = z.output<typeof rulePatternSchema>
