// How fast a progress message may change on each platform: one lane per chat (per workspace on
// Slack), one call at a time, each at least `everyMs` after the last one was answered, so however
// many tool calls a turn makes the platform sees edits at a pace below its limit. What waits in a
// lane is coalesced: a message asked for again while it waits keeps its place, and shows what is
// newest when its turn comes.
import type { BridgePlatform } from '../../core/bridges.js'

export interface EditLimit {
  /** The platform's documented limit: at most `max` calls in any `windowMs`. */
  max: number
  windowMs: number
  /** What the limit is counted per: a chat (a channel), or the whole workspace. */
  per: 'chat' | 'workspace'
  /** The pace progress keeps: below the limit, leaving room for replies and prompts in the same chat. */
  everyMs: number
}

/**
 * The figures, and where they come from:
 * - Telegram, Bot FAQ ("My bot is hitting limits, how do I avoid this?", core.telegram.org/bots/faq):
 *   about one message a second in a chat, at most 20 a minute in a group; edits count alike (429 with
 *   retry_after). 20 a minute for every chat; progress takes one every 4 s (15 a minute).
 * - Discord, "Rate Limits" (discord.com/developers/docs/topics/rate-limits): per route and per channel,
 *   dynamic (discord.js reads the headers); creating or editing messages in a channel is 5 per 5 s in
 *   practice. Progress takes one every 1.25 s (4 per 5 s); a Discord thread is a channel of its own.
 * - Slack, "Rate limits" (api.slack.com/docs/rate-limits) and chat.update's page: Tier 3, 50+ a
 *   minute per method per workspace per app. Progress takes one every 1.5 s (40 a minute) for the
 *   whole workspace.
 */
export const EDIT_LIMITS: Record<BridgePlatform, EditLimit> = {
  telegram: { max: 20, windowMs: 60_000, per: 'chat', everyMs: 4_000 },
  discord: { max: 5, windowMs: 5_000, per: 'chat', everyMs: 1_250 },
  slack: { max: 50, windowMs: 60_000, per: 'workspace', everyMs: 1_500 },
}

export interface Clock {
  now(): number
  wait(ms: number): Promise<void>
}

export const realClock: Clock = {
  now: () => Date.now(),
  wait: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms).unref()
    }),
}

/** What a lane's work says back: the platform asked to wait (a 429's retry-after), or nothing. */
export type PacedOutcome = { retryAfterMs: number } | undefined

interface Lane {
  waiting: Map<string, () => Promise<PacedOutcome>>
  nextAt: number
  running: boolean
}

export class Pacer {
  private readonly lanes = new Map<string, Lane>()
  private stopped = false

  constructor(
    private readonly everyMs: number,
    private readonly clock: Clock = realClock,
  ) {}

  /** `work` runs in `lane` at its pace; asked again for the same `id` while waiting, it runs once. */
  ask(lane: string, id: string, work: () => Promise<PacedOutcome>): void {
    if (this.stopped) return
    let l = this.lanes.get(lane)
    if (!l) {
      l = { waiting: new Map(), nextAt: 0, running: false }
      this.lanes.set(lane, l)
    }
    if (!l.waiting.has(id)) l.waiting.set(id, work)
    if (!l.running) void this.run(lane, l)
  }

  /** Resolves once every lane is empty (the bench and the tests wait on it). */
  async idle(): Promise<void> {
    while ([...this.lanes.values()].some((l) => l.running)) await this.clock.wait(10)
  }

  stop(): void {
    this.stopped = true
    for (const lane of this.lanes.values()) lane.waiting.clear()
  }

  private async run(name: string, lane: Lane): Promise<void> {
    lane.running = true
    try {
      for (;;) {
        const next = lane.waiting.entries().next()
        if (next.done || this.stopped) break
        const wait = lane.nextAt - this.clock.now()
        if (wait > 0) {
          await this.clock.wait(wait)
          continue // more may have been asked meanwhile; the first in line goes
        }
        const [id, work] = next.value
        lane.waiting.delete(id)
        const outcome = await work().catch(() => undefined)
        // Counted from the answer: the platform sees the calls at least everyMs apart.
        lane.nextAt = this.clock.now() + Math.max(this.everyMs, outcome?.retryAfterMs ?? 0)
        if (outcome && !lane.waiting.has(id)) lane.waiting.set(id, work)
      }
    } finally {
      lane.running = false
      // Its pace is kept until it has passed: a call asked for right after must still wait.
      if (!lane.waiting.size && lane.nextAt <= this.clock.now()) this.lanes.delete(name)
    }
  }
}
