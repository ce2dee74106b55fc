// Delivery you can prove: an event the channel wrote is done only once Claude Code's own transcript
// shows it in context. Written, read by Claude Code, and not seen within the deadline after that: the
// transcript is read once more; when it holds a line Claude Code made after it read the event, the
// event was dropped (while starting, before a -p session's first input, after /mcp, a channel not
// wired yet) and is written again with the same id. A silent transcript may only be slow to write
// (a loaded machine took seconds): the event is given SILENT_PATIENCE deadlines before it is written
// again. Seen queued: it waits, and is never written again, so Claude sees it once. After the last
// try it is unconfirmed, and goes down the ladder; at once when the transcript cannot be written (a
// full disk): Claude Code took the event, it only could not write it down.

import type { TranscriptMark } from '../claude/transcript-marks.js'
import type { StoredEvent } from '../core/event.js'
import type { ReceiptStage } from '../core/receipts.js'

export interface ConfirmHooks {
  /** Writes the notification; resolves once it is in Claude Code's pipe. */
  write(event: StoredEvent): Promise<void>
  /** Tells the hub (a receipt message). */
  receipt(event: StoredEvent, stage: ReceiptStage, tries: number, reason?: string): void
  /** In context: acknowledge, and remember it as shown. */
  confirmed(event: StoredEvent): void
  /** Out of tries: the next rung takes it. */
  unconfirmed(event: StoredEvent, reason: string): void
  /** Why an event would not reach the context, as far as the channel can tell. */
  why(): string
  /**
   * Why the transcript cannot show anything now (a full disk, a file Claude Code may not write), if
   * so: an event it lacks was not dropped, and is not written again (Claude would see it twice).
   */
  unwritable(): string | null
  /**
   * Resolves once Claude Code has read from its pipe what was written so far (it answered a ping
   * written after it); rejects when it cannot say.
   */
  read(): Promise<void>
}

export interface ConfirmOptions {
  deadlineMs: number
  tries: number
  /** The transcript as last read, and a way to read on. */
  state(id: string): TranscriptMark | 'absent'
  refresh(): void
  /** When Claude Code made the newest transcript line read so far (the line's own time), if any. */
  newestLineAt(): number | null
}

/** How many deadlines a read event waits on a silent transcript before it is written again. */
export const SILENT_PATIENCE = 5

interface Tracked {
  event: StoredEvent
  tries: number
  timer: NodeJS.Timeout | null
  queued: boolean
  /** When Claude Code answered a ping written after this try (null: it could not say). */
  readAt: number | null
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
    const entry: Tracked = { event, tries: 0, timer: null, queued: false, readAt: null }
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
    // The deadline runs from when Claude Code has read the notification, not from when it was
    // written: a session busy elsewhere (a loaded machine, a screen redrawn for every event) reads
    // its pipe seconds later, and writing again then shows Claude the event twice. Not awaited: the
    // next delivery is written meanwhile.
    const tries = entry.tries
    entry.readAt = null
    const arm = (readAt: number | null) => {
      if (this.tracked.get(entry.event.id) !== entry || entry.tries !== tries) return
      entry.readAt = readAt
      this.arm(entry)
    }
    this.hooks.read().then(
      () => arm(Date.now()),
      () => arm(null),
    )
  }

  private deadline(entry: Tracked): number {
    return this.options.deadlineMs * 2 ** (entry.tries - 1)
  }

  private arm(entry: Tracked): void {
    if (entry.queued || entry.timer) return
    entry.timer = setTimeout(() => void this.expired(entry), this.deadline(entry))
    entry.timer.unref()
  }

  /**
   * Whether Claude Code dropped the event: its transcript has moved past the moment it read it (its
   * lines are written in the order it made them), or stayed silent too long to be only slow.
   */
  private dropped(entry: Tracked): boolean {
    if (entry.readAt === null) return true // it cannot say when it read: the deadline is all there is
    const newest = this.options.newestLineAt()
    if (newest !== null && newest > entry.readAt) return true
    return Date.now() - entry.readAt >= this.deadline(entry) * SILENT_PATIENCE
  }

  private async expired(entry: Tracked): Promise<void> {
    entry.timer = null
    if (this.tracked.get(entry.event.id) !== entry) return
    this.options.refresh() // checked once more before writing again
    if (this.settle(entry)) return
    if (!this.dropped(entry)) return this.arm(entry)
    const unwritable = this.hooks.unwritable()
    if (entry.tries < this.options.tries && !unwritable) return this.writeAgain(entry)
    this.finish(entry)
    const reason = unwritable ?? this.hooks.why()
    this.hooks.receipt(entry.event, 'unconfirmed', entry.tries, reason)
    this.hooks.unconfirmed(entry.event, reason)
  }
}
