// What every line of the github preset is made of: the delivery's context (who did it, where), the
// shapes the summaries share, and the small helpers that put one line together.
import * as z from 'zod'
import { shaped } from './preset.js'

export const user = z.object({ login: z.string() })
export const named = z.object({ name: z.string() })

/** A GitHub delivery as its summary reads it. */
export interface Context {
  event: string
  json: unknown
  /** GitHub's sender, when the payload names one (a global security advisory does not). */
  actor: string | null
  action: string
  /**
   * Where it happened, as the line names it: `acme/webshop`, or for a delivery that is not about a
   * repository `organization acme`, `account octocat`, `enterprise big-co`; null when GitHub names
   * none (its advisory database).
   */
  where: string | null
}

export interface Summary {
  content: string
  meta: Record<string, unknown>
}

export type Summarize = (c: Context) => Summary

const MAX_EXCERPT = 200

export const words = (name: string) => name.replace(/_/g, ' ')
/** A person's text cut to one line a summary can carry: its first line, at most 200 characters. */
export function excerpt(text: string | null | undefined): string {
  const line = (text ?? '').split('\n')[0]?.trim() ?? ''
  return line.length > MAX_EXCERPT ? `${line.slice(0, MAX_EXCERPT - 1)}…` : line
}
export const linked = (line: string, url: string | null | undefined) => (url ? `${line} — ${url}` : line)
export const short = (sha: string) => sha.slice(0, 7)
/** " in acme/webshop", or nothing when the delivery names no place. */
export const within = (c: Context) => (c.where ? ` in ${c.where}` : '')
/** Who did it, for a line that starts with them (GitHub, when the payload names no one). */
export const who = (c: Context) => c.actor ?? 'GitHub'
/** The place a delivery names, for a line that must name one (GitHub's own, when it names none). */
export const place = (c: Context) => c.where ?? 'GitHub'

/** Actions that read well as "alice <verb> pull request #12"; the others read "… #12 <action> by alice". */
const ACTIVE = new Map([
  ['opened', 'opened'],
  ['closed', 'closed'],
  ['merged', 'merged'],
  ['reopened', 'reopened'],
  ['edited', 'edited'],
  ['created', 'created'],
  ['deleted', 'deleted'],
  ['synchronize', 'pushed to'],
  ['closed_by_user', 'closed'],
])

export function happened(actor: string | null, action: string, thing: string): string {
  if (!action) return actor ? `${thing} by ${actor}` : thing
  const verb = ACTIVE.get(action)
  if (!actor) return `${thing} ${words(action)}`
  return verb ? `${actor} ${verb} ${thing}` : `${thing} ${words(action)} by ${actor}`
}

/** "alice created label bug in acme/webshop": what happened to a thing where the delivery happened. */
export const happenedHere = (c: Context, thing: string) => happened(c.actor, c.action, `${thing}${within(c)}`)

export function refName(ref: string): { kind: 'branch' | 'tag' | 'ref'; name: string } {
  if (ref.startsWith('refs/heads/')) return { kind: 'branch', name: ref.slice('refs/heads/'.length) }
  if (ref.startsWith('refs/tags/')) return { kind: 'tag', name: ref.slice('refs/tags/'.length) }
  return { kind: 'ref', name: ref }
}

/** "completed: failure", or what is under way ("requested", "in progress"). */
export const outcome = (action: string, conclusion: string | null | undefined) =>
  action === 'completed' ? `completed: ${conclusion ?? 'no conclusion'}` : words(action)

/** A summary's fields; only the ones it reads are checked, so a payload that grows still reads. */
export const read = <T>(c: Context, schema: z.ZodType<T>): T => shaped(c.json, schema, `github ${c.event}`)
