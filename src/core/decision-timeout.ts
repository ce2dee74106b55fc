// How long a decision waits for a person, what happens when nobody answers, and the words every
// surface says it in (the hub's prompts and notices, the CLI, the dashboard: no zod, the page reads it).
import { spanMs } from './span.js'

/** What a decision's timeout does: deny the call, or give the dialog back to Claude Code's own prompt. */
export const TIMEOUT_OUTCOMES = ['deny', 'terminal'] as const
export type TimeoutOutcome = (typeof TIMEOUT_OUTCOMES)[number]

/** Who a decision closed by its timeout is recorded as answered by. */
export const TIMEOUT_ANSWERER = 'timeout'

/** The longest a duration setting may say: a day. */
export const MAX_DURATION_SECONDS = 86_400

/** `90s`, `10m`, `1h` (or a bare number of seconds) as seconds; `off` as null; anything else undefined. */
export function durationSeconds(text: string): number | null | undefined {
  if (text.trim().toLowerCase() === 'off') return null
  const ms = spanMs(text, 'smh', 's')
  if (ms === null) return undefined
  const seconds = ms / 1000
  return seconds > 0 && seconds <= MAX_DURATION_SECONDS ? seconds : undefined
}

/** A span as a person reads it: "90 s", "10 min", "1 h 30 min". */
export function spanText(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000))
  if (seconds < 120 && seconds % 60 !== 0) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest ? `${hours} h ${rest} min` : `${hours} h`
}

/** A time of day, 24-hour, in the reader's (or the hub's) local time: "14:05". */
export function clockText(at: number): string {
  const d = new Date(at)
  return `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`
}

/** What an open decision says of its end: "Denied at 14:05 unless answered". */
export function timeoutLine(expiresAt: number, outcome: TimeoutOutcome, clock = clockText): string {
  return outcome === 'deny'
    ? `Denied at ${clock(expiresAt)} unless answered`
    : `Goes back to the terminal at ${clock(expiresAt)}`
}

/** What a decision's copies say once its time ran out: "Denied: no one answered within 10 min". */
export function timedOutText(outcome: TimeoutOutcome, waitedMs: number): string {
  const within = `no one answered within ${spanText(waitedMs)}`
  return outcome === 'deny' ? `Denied: ${within}` : `Back to the terminal: ${within}`
}

/** The message the model is given when the timeout denies its call. */
export function timeoutDenial(waitedMs: number): string {
  return `Denied by Switchboard's decision timeout: no one answered within ${spanText(waitedMs)}`
}

/** A decision's timeout as stored in its request (`on_timeout`), when it has one. */
export function outcomeOf(request: Record<string, unknown>): TimeoutOutcome | null {
  const said = request.on_timeout
  return said === 'deny' || said === 'terminal' ? said : null
}
