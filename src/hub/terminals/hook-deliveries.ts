// Receipts on the hooks rung (issue 33): the events a session's UserPromptSubmit or PostToolUse hook
// takes (Hub.takeForHook) are recorded for its subscriber as `written` when the hook's answer leaves,
// and `in_context` once Claude Code's transcript shows the hook's text in the conversation (an
// attachment hook_additional_context: docs/transcript-receipts.md). The hook cannot write an event
// again as a channel does, so the hub waits as long as a channel's tries would take, all of them
// (config.confirmMs, doubling, confirmTries times); then the receipt says `unconfirmed`, with why, and
// operators are told (Hub.receipt). A hook that gave up before the hub answered (its timeout ran out
// while the hub was slow or stopped) carries nothing: what the hub took for it is handed back, pending
// for the session's next hook, its receipt saying why, and operators are told (Hub.handBack).

import { POLL_MS } from '../../claude/transcript-watch.js'
import type { HookInput } from '../../core/claude-hooks.js'
import type { StoredEvent } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import type { Hub } from '../core/hub.js'
import { HookTranscript, hubTranscriptPlace, type TranscriptPlace } from './hook-transcript.js'

/** The channel's deadlines (core/settings/table.ts), read at each hand-over. */
export interface ConfirmTimes {
  confirmMs: number
  confirmTries: number
}

/** The hook's request, as far as a hand-over needs it (terminal-hooks.ts HookCall). */
export interface HookRequest {
  /** Aborted when the hook stopped waiting for the answer. */
  signal?: AbortSignal
  /** The hook's own timeout as installed, in seconds. */
  timeoutSeconds?: number | null
}

/** What operators are told becomes of a hook's event that never showed: nothing hands it over again. */
const NOTHING_AFTER = 'the session’s hook handed it over, and nothing will again'

/** An event handed over, waiting for the transcript. */
interface Handed {
  event: StoredEvent
  tries: number
  at: number
  timer: NodeJS.Timeout
}

/** One session's transcript, read while events it was handed wait to show in it. */
interface Watched {
  subscriber: string
  transcript: HookTranscript
  waiting: Map<string, Handed>
  /** The transcript's end taken (HookTranscript.begin): looks wait for it. */
  ready: Promise<void>
  poll: NodeJS.Timeout | null
  /** The look under way: one at a time. */
  looking: Promise<void> | null
}

export class HookDeliveries {
  /** By subscriber and transcript path; gone once nothing waits. */
  private readonly watched = new Map<string, Watched>()

  constructor(
    private readonly hub: Hub,
    private readonly log: Logger,
    private readonly times: () => ConfirmTimes,
    private readonly place: TranscriptPlace = hubTranscriptPlace(),
  ) {}

  /**
   * What waits for `subscriber`, taken for the answer of the hook whose input this is: each event
   * recorded as written, and looked for in the session's transcript from here on.
   */
  async take(subscriber: string, input: HookInput, call: HookRequest = {}): Promise<StoredEvent[]> {
    const events = await this.hub.takeForHook(subscriber, input.cwd)
    if (!events.length) return events
    if (call.signal?.aborted) return this.handBack(subscriber, events, call)
    // Taken: whatever goes wrong below, the hook still hands them over.
    let watched: Watched | null = null
    try {
      watched = await this.watch(subscriber, input.transcript_path)
      for (const event of events) await this.handed(watched, event)
    } catch (err) {
      this.log.error({ err, subscriber }, 'hook delivery receipts not recorded')
    }
    if (!call.signal?.aborted) return events
    if (watched) for (const event of events) this.unwatch(watched, event.id)
    return this.handBack(subscriber, events, call)
  }

  /** The hook's request ended before its answer could leave: nothing reaches the session. */
  private async handBack(
    subscriber: string,
    events: StoredEvent[],
    call: HookRequest,
  ): Promise<StoredEvent[]> {
    const timeout = call.timeoutSeconds ? `${call.timeoutSeconds} s ` : ''
    const reason = `the session's hook gave up before the hub answered (its ${timeout}timeout ran out, or the session went on): it waits for the session's next hook`
    await this.hub
      .handBack(subscriber, events, reason)
      .catch((err) => this.log.error({ err, subscriber }, 'events a hook never carried not handed back'))
    return []
  }

  private unwatch(watched: Watched, id: string): void {
    const entry = watched.waiting.get(id)
    if (entry) this.settle(watched, entry)
  }

  /** The hub stops: nothing more is read or said. */
  close(): void {
    for (const watched of this.watched.values()) this.drop(watched)
  }

  private async watch(subscriber: string, path: string | undefined): Promise<Watched> {
    const key = `${subscriber}\0${path ?? ''}`
    let watched = this.watched.get(key)
    if (!watched) {
      const transcript = new HookTranscript(
        path,
        this.place,
        (id, mark, at) => {
          if (mark === 'in_context' && watched) void this.confirmed(watched, id, at)
        },
        subscriber,
      )
      // Before the answer leaves: Claude Code writes the hook's text after it.
      const ready = transcript
        .begin()
        .catch((err) => this.log.warn({ err, transcript: path }, 'transcript not read'))
      watched = { subscriber, transcript, waiting: new Map(), ready, poll: null, looking: null }
      this.watched.set(key, watched)
    }
    await watched.ready
    return watched
  }

  private async handed(watched: Watched, event: StoredEvent): Promise<void> {
    const before = watched.waiting.get(event.id)
    if (before) clearTimeout(before.timer)
    const { confirmMs, confirmTries } = this.times()
    const entry: Handed = {
      event,
      tries: (before?.tries ?? (await this.triedBefore(watched.subscriber, event))) + 1,
      at: Date.now(),
      timer: setTimeout(() => void this.expired(watched, entry), confirmMs * (2 ** confirmTries - 1)),
    }
    entry.timer.unref()
    watched.waiting.set(event.id, entry)
    watched.poll ??= setInterval(() => void this.look(watched), POLL_MS)
    watched.poll.unref()
    await this.report(watched, entry, 'written')
  }

  /**
   * How often the event was written to the subscriber before this hand-over: a channel's tries, when
   * it gave the event up and the hook takes it down the ladder; none for one the hook takes first.
   */
  private async triedBefore(subscriber: string, event: StoredEvent): Promise<number> {
    const receipt = (await this.hub.store.eventReceipts(event.id)).find((d) => d.subscriber === subscriber)
    return receipt?.state === 'unconfirmed' ? receipt.tries : 0
  }

  private look(watched: Watched): Promise<void> {
    watched.looking ??= watched.ready
      .then(() => watched.transcript.look())
      .catch((err) => this.log.warn({ err, transcript: watched.transcript.path }, 'transcript not read'))
      .finally(() => {
        watched.looking = null
      })
    return watched.looking
  }

  private async confirmed(watched: Watched, id: string, at: number): Promise<void> {
    const entry = watched.waiting.get(id)
    if (!entry) return
    this.settle(watched, entry)
    await this.report(watched, entry, 'in_context', { at })
  }

  /** Out of time: read once more, then unconfirmed. */
  private async expired(watched: Watched, entry: Handed): Promise<void> {
    await this.look(watched)
    if (watched.waiting.get(entry.event.id) !== entry) return
    const unwritable = await watched.transcript.unwritable()
    if (watched.waiting.get(entry.event.id) !== entry) return
    this.settle(watched, entry)
    const reason = unwritable ?? watched.transcript.why(entry.at)
    await this.report(watched, entry, 'unconfirmed', { reason })
  }

  private settle(watched: Watched, entry: Handed): void {
    clearTimeout(entry.timer)
    watched.waiting.delete(entry.event.id)
    if (!watched.waiting.size) this.drop(watched)
  }

  private drop(watched: Watched): void {
    for (const entry of watched.waiting.values()) clearTimeout(entry.timer)
    if (watched.poll) clearInterval(watched.poll)
    watched.poll = null
    for (const [key, w] of this.watched) if (w === watched) this.watched.delete(key)
  }

  private async report(
    watched: Watched,
    entry: Handed,
    stage: 'written' | 'in_context' | 'unconfirmed',
    extra: { at?: number; reason?: string } = {},
  ): Promise<void> {
    await this.hub
      .receipt(
        watched.subscriber,
        { type: 'receipt', event_id: entry.event.id, stage, tries: entry.tries, ...extra },
        NOTHING_AFTER,
      )
      .catch((err) =>
        this.log.error(
          { err, subscriber: watched.subscriber, event: entry.event.id, stage },
          'receipt not recorded',
        ),
      )
  }
}
