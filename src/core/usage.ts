// What sessions cost, as every surface asks for it (the API, `switchboard usage`, the dashboard):
// totals grouped one way, since a time, from what each CLI reported at the end of each turn (a
// Claude Code result's total_cost_usd and usage; Codex gives tokens and no price, so its turns are
// counted as unpriced, never given a made-up cost). No Node imports: the page uses it too.
import * as z from 'zod'
import { spanMs } from './span.js'

/** What totals may be grouped by. `day` is a calendar day in the asked time zone (UTC unless said). */
export const USAGE_GROUPS = ['project', 'session', 'agent', 'routine', 'operator', 'day'] as const
export type UsageGroup = (typeof USAGE_GROUPS)[number]

/** One turn's usage as its session's CLI reported it, with who and what it is counted against. */
export interface UsageEntry {
  sessionId: string
  at: number
  /** The project's name as every surface shows it (its repository's, else its folder's); null: none known. */
  project: string | null
  agent: string
  /** The routine whose run started the session; null for one a person started. */
  routine: string | null
  /** Who started the session (a sender's name, `cli`); null when not known. */
  operator: string | null
  /** What the turn cost in USD; null when its CLI prices nothing (Codex): unpriced, not free. */
  costUsd: number | null
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

/** The sums of one group. */
export interface UsageTotal {
  /** The group's value (a project's name, a session id, a day as YYYY-MM-DD); null: none recorded. */
  key: string | null
  costUsd: number
  /** Turns whose CLI gave no price: their cost is not in costUsd. */
  unpricedTurns: number
  turns: number
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number
  cacheWriteTokens: number
}

export interface UsageReport {
  by: UsageGroup
  since: number
  tz: string
  totals: UsageTotal[]
}

/**
 * `since` as a person writes it: a span back from `now` (`30m`, `24h`, `7d`, `2w`) or a date or
 * time (`2026-11-01`, ISO 8601; a bare date is midnight UTC). Null: it reads as neither.
 */
export function sinceOf(text: string, now: number): number | null {
  const span = spanMs(text, 'mhdw')
  if (span !== null) return now - span
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : at
}

/** Whether `tz` is a time zone this runtime knows (`UTC`, `Europe/Paris`). */
export function knownTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

const SINCE_HELP = 'since is a span back (30m, 24h, 7d, 2w) or a date (2026-11-01)'

/** GET /api/usage's query: the grouping, from when, and the time zone of its days. */
export const usageQuerySchema = z
  .object({
    by: z.enum(USAGE_GROUPS, { error: `by is one of ${USAGE_GROUPS.join(', ')}` }).default('project'),
    since: z
      .string()
      .default('7d')
      .refine((s) => sinceOf(s, 0) !== null, SINCE_HELP),
    tz: z
      .string()
      .default('UTC')
      .refine(knownTimeZone, 'tz is not a time zone (UTC, Europe/Paris, America/New_York)'),
  })
  .strict()
export type UsageQuery = z.infer<typeof usageQuerySchema>

/**
 * The store groups a day's turns by quarter hour (every time zone's offset is a whole number of
 * them), and these quarters are folded into the days of `tz` here: one query, right in any zone,
 * across a change of summer time too.
 */
export const QUARTER_MS = 15 * 60_000

/** The calendar day (YYYY-MM-DD) of `at` in `tz`. */
export function dayIn(at: number, tz: string): string {
  // en-CA writes a date as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at)
}

/** Totals by quarter hour (the key: the quarter's number since the epoch) as totals by day in `tz`, oldest first. */
export function quartersToDays(quarters: UsageTotal[], tz: string): UsageTotal[] {
  const days = new Map<string, UsageTotal>()
  for (const q of quarters) {
    const day = dayIn(Number(q.key) * QUARTER_MS, tz)
    const sum = days.get(day) ?? { ...emptyTotal(), key: day }
    days.set(day, addTotals(sum, q, day))
  }
  return [...days.values()].sort((a, b) => String(a.key).localeCompare(String(b.key)))
}

export function emptyTotal(key: string | null = null): UsageTotal {
  return {
    key,
    costUsd: 0,
    unpricedTurns: 0,
    turns: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  }
}

function addTotals(a: UsageTotal, b: UsageTotal, key: string | null): UsageTotal {
  return {
    key,
    // To the millionth of a dollar, as money.ts's roundUsd keeps sums.
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e6) / 1e6,
    unpricedTurns: a.unpricedTurns + b.unpricedTurns,
    turns: a.turns + b.turns,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  }
}

/** The usage a CLI's result line reports; null for any other line. */
export function usageOfResult(
  line: Record<string, unknown>,
): Pick<
  UsageEntry,
  'costUsd' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'
> | null {
  if (line.type !== 'result') return null
  const usage = (typeof line.usage === 'object' && line.usage !== null ? line.usage : {}) as Record<
    string,
    unknown
  >
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.round(v) : 0)
  const cost = line.total_cost_usd
  return {
    costUsd: typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null,
    inputTokens: count(usage.input_tokens),
    outputTokens: count(usage.output_tokens),
    cacheReadTokens: count(usage.cache_read_input_tokens),
    cacheWriteTokens: count(usage.cache_creation_input_tokens),
  }
}
