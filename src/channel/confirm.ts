// Delivery you can prove: an event the channel wrote is done only once Claude Code's own transcript
// shows it in context. Written and not seen within the deadline: the transcript is read once more,
// then the event is written again with the same id (Claude Code dropped it: while starting, before
// a -p session's first input, after /mcp). The deadline counts from when Claude Code has read it. Seen queued: it waits, and is never written again, so
// Claude sees it once. After the last try it is unconfirmed, and goes down the ladder.
import type { StoredEvent } from '../core/event.js'
import type { ReceiptStage } from '../core/receipts.js'
import type { TranscriptMark } from './transcript-marks.js'

export interface ConfirmHooks {
  /** Writes the notification; resolves once it is in Claude Code's pipe. */
  write(event: StoredEvent): Promise<void>
  /**
   * Resolves once Claude Code has read all that was written before (it answered a ping: it reads
   * its stdin in order). A CLI starved of CPU may read an event seconds after it was written; a
   * deadline counted from the write would send it a second copy, and Claude would see both.
   */
  heard(): Promise<void>
  /** Tells the hub (a receipt message). */
  receipt(event: StoredEvent, stage: ReceiptStage, tries: number, reason?: string): void
  /** In context: acknowledge, and remember it as shown. */
  confirmed(event: StoredEvent): void
  /** Out of tries: the next rung takes it. */
  unconfirmed(event: StoredEvent, reason: string): void
  /** Why an event would not reach the context, as far as the channel can tell. */
  why(): string
}

export interface ConfirmOptions {
  deadlineMs: number
  tries: number
  /** The transcript as last read, and a way to read on. */
  state(id: string): TranscriptMark | 'absent'
  refresh(): void
}

interface Tracked {
  event: StoredEvent
  tries: number
  timer: NodeJS.Timeout | null
  queued: boolean
}

export class Confirmer {
  private readonly tracked = new Map<string, Tracked>()

  constructor(
    private readonly hooks: ConfirmHooks,
    private readonly options: ConfirmOptions,
  ) {}

  /** How many are written and waiting for the transcript. */
  get waiting(): number {
    return this.tracked.size
  }

  /**
   * A delivery. One the transcript already shows (a channel started again after a crash, a hub that
   * sent it again) is not written: it is confirmed, or waits where it is queued.
   */
  async deliver(event: StoredEvent): Promise<void> {
    if (this.tracked.has(event.id)) return
    const entry: Tracked = { event, tries: 0, timer: null, queued: false }
    this.tracked.set(event.id, entry)
    this.options.refresh()
    if (!this.settle(entry)) await this.writeAgain(entry)
  }

  /** The transcript shows an id: called by the watch for every change. */
  seen(id: string, mark: TranscriptMark): void {
    const entry = this.tracked.get(id)
    if (entry) this.settle(entry, mark)
  }

  close(): void {
    for (const entry of this.tracked.values()) if (entry.timer) clearTimeout(entry.timer)
    this.tracked.clear()
  }

  /** True when the transcript has it (in context: done; queued: waiting without a deadline). */
  private settle(entry: Tracked, mark = this.options.state(entry.event.id)): boolean {
    if (mark === 'in_context') {
      this.finish(entry)
      this.hooks.receipt(entry.event, 'in_context', entry.tries)
      this.hooks.confirmed(entry.event)
      return true
    }
    if (mark === 'queued') {
      if (entry.timer) clearTimeout(entry.timer)
      entry.timer = null
      if (!entry.queued) this.hooks.receipt(entry.event, 'queued', entry.tries)
      entry.queued = true
      return true
    }
    return false
  }

  private finish(entry: Tracked): void {
    if (entry.timer) clearTimeout(entry.timer)
    this.tracked.delete(entry.event.id)
  }

  private async writeAgain(entry: Tracked): Promise<void> {
    entry.tries++
    await this.hooks.write(entry.event)
    if (this.tracked.get(entry.event.id) !== entry) return // confirmed while it was written
    this.hooks.receipt(entry.event, 'written', entry.tries)
    await this.hooks.heard()
    if (this.tracked.get(entry.event.id) !== entry || entry.queued || entry.timer) return
    const wait = this.options.deadlineMs * 2 ** (entry.tries - 1)
    entry.timer = setTimeout(() => void this.expired(entry), wait)
    entry.timer.unref()
  }

  private async expired(entry: Tracked): Promise<void> {
    entry.timer = null
    if (this.tracked.get(entry.event.id) !== entry) return
    await this.hooks.heard() // Claude Code is taking its input again: what it took is in the transcript by now
    if (this.tracked.get(entry.event.id) !== entry || entry.timer) return
    this.options.refresh() // checked once more before writing again
    if (this.settle(entry)) return
    if (entry.tries < this.options.tries) return this.writeAgain(entry)
    this.finish(entry)
    const reason = this.hooks.why()
    this.hooks.receipt(entry.event, 'unconfirmed', entry.tries, reason)
    this.hooks.unconfirmed(entry.event, reason)
  }
}
