// What each rung of the contract reports: its promise in words, and the times measured for it.
import { summarize } from '../stats.js'

export type Summary = ReturnType<typeof summarize>

export interface RungFigures {
  /** 202 → `written` (the rung's hand-over: a pipe, a hook's answer, a receiver's 2xx). */
  written: Summary | null
  /** 202 → `in_context` (Claude Code's transcript shows it), where the rung can prove that. */
  inContext: Summary | null
  /** What the two figures measure on this rung, when it is not the event's own receipts. */
  note?: string
}

export interface Rung {
  name: string
  /** The promise, as the README's contract states it. */
  promise: string
  measure(n: number, warmup: number): Promise<RungFigures>
}

/** Samples taken after the warm-up, summarized; null when there are none. */
export function figures(samples: (number | null)[], warmup: number): Summary | null {
  const kept = samples.slice(warmup).filter((s): s is number => s !== null)
  return kept.length ? summarize(kept) : null
}
