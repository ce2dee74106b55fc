// What the channel does with an event the hub delivers: the rung decides whether Claude is shown it
// (a channel notification) or told of it (a line, and the inbox tool); the shown log keeps a channel
// started again from showing it twice; and, where Claude Code writes a transcript, the confirmer
// holds the event until the transcript shows it in context (confirm.ts). The hub hears the outcome
// as events of this class ('receipt', 'handled'): it is built after the delivery it hands events to.

import { EventEmitter } from 'node:events'
import type { TranscriptMark } from '../claude/transcript-marks.js'
import type { StoredEvent } from '../core/event.js'
import type { ClientMessage } from '../core/hub-protocol.js'
import { Confirmer } from './confirm.js'
import { Inbox } from './inbox.js'
import type { Rung } from './rung.js'
import type { ShownLog } from './shown.js'
import type { SessionStart } from './why.js'

/** What the channel says to Claude Code (claude-code.ts). */
export interface ClaudeSide {
  /** A channel notification; resolves once it is in Claude Code's pipe. */
  show(event: StoredEvent): Promise<void>
  /** A line in Claude Code's log of the server (rung 5's way to say an event came). */
  notice(text: string): Promise<void>
  /** Resolves once Claude Code has read what was written so far; rejects when it cannot say. */
  read(): Promise<void>
}

/** The session's transcript as the channel reads it (claude/transcript-watch.ts). */
export interface Transcript {
  state(id: string): TranscriptMark | 'absent'
  refresh(): void
  newestLineAt(): number | null
  /** When this Claude Code process made its first line (claude/transcript-watch.ts). */
  firstLineAt(): number | null
  /** Why Claude Code cannot write the transcript now, if so (claude/transcript-disk.ts). */
  unwritable(): string | null
  readonly found: boolean
  start(): void
  stop(): void
}

export interface DeliveryOptions {
  claude: ClaudeSide
  /** Opens the transcript, which tells `onMark` every mark it reads. */
  transcript(onMark: (id: string, mark: TranscriptMark) => void): Transcript
  /** Whether deliveries wait for the transcript: only Claude Code, with persistence, writes one. */
  confirming: boolean
  /** How long after `initialized` Claude Code is taken to listen (listenGraceMs). */
  graceMs: number
  /** The confirmer's first deadline and its tries (confirmMs, confirmTries). */
  deadlineMs: number
  tries: number
  /**
   * Why an event would not reach the context, given whether a transcript was found and how the
   * session started (why.ts).
   */
  why(transcriptFound: boolean, start: SessionStart): string
}

export type Receipt = Omit<Extract<ClientMessage, { type: 'receipt' }>, 'type'>

export interface DeliveryEvents {
  /** How far a delivery got: for the hub (and the log). */
  receipt: [Receipt]
  /** Done with this event: the hub may count it acknowledged. */
  handled: [string]
}

export class Delivery extends EventEmitter<DeliveryEvents> {
  private readonly inbox = new Inbox()
  private readonly transcript: Transcript
  private readonly confirmer: Confirmer
  /** Chosen once the MCP client initialized the channel: until then the hub lists it without one. */
  private chosen: Rung | null = null
  /** When Claude Code initialized the channel. */
  private setUpAt: number | null = null
  private shown: ShownLog | null = null
  private readonly listened = deferred<void>()
  private readonly opened = deferred<ShownLog>()

  constructor(private readonly options: DeliveryOptions) {
    super()
    this.transcript = options.transcript((id, mark) => this.confirmer.seen(id, mark))
    this.confirmer = new Confirmer(
      {
        write: (event) => options.claude.show(event),
        receipt: (event, stage, tries, reason) => {
          const at = stage === 'written' || stage === 'unconfirmed' ? undefined : Date.now()
          this.emit('receipt', {
            event_id: event.id,
            stage,
            tries,
            ...(at ? { at } : {}),
            ...(reason ? { reason } : {}),
          })
        },
        confirmed: (event) => this.handled(event),
        unconfirmed: (event, reason) => {
          // Down the ladder: the hub hands it to the session's hook; here it waits unread in the
          // inbox, with a line Claude can act on.
          this.inbox.unread(event)
          void options.claude.notice(
            `New event ${event.id} from ${event.source} (topic ${event.topic}) could not be shown (${reason}): call the inbox tool to read it.`,
          )
          this.emit('handled', event.id)
        },
        why: () =>
          options.why(this.transcript.found, {
            firstLineAt: this.transcript.firstLineAt(),
            setUpAt: this.setUpAt,
          }),
        unwritable: () => this.transcript.unwritable(),
        // Claude Code reads its pipe in order: a ping answered was read after every line before it.
        read: () => options.claude.read(),
      },
      {
        deadlineMs: options.deadlineMs,
        tries: options.tries,
        state: (id) => this.transcript.state(id),
        refresh: () => this.transcript.refresh(),
        newestLineAt: () => this.transcript.newestLineAt(),
      },
    )
    if (options.confirming) this.transcript.start()
  }

  /** The rung taken, once Claude Code initialized the channel. */
  get rung(): Rung | null {
    return this.chosen
  }

  /**
   * Resolves once Claude Code listens. It drops channel notifications, silently, until it has set
   * the server up, which ends some time after `initialized` (seen: a notification 10 ms after it
   * was lost, one 1 s after arrived). Nothing says when: the grace is a guess.
   */
  get listening(): Promise<void> {
    return this.listened.promise
  }

  /** Claude Code initialized the channel: deliveries take `rung`, once the grace has passed. */
  begin(rung: Rung): void {
    this.chosen = rung
    this.setUpAt = Date.now()
    setTimeout(() => this.listened.resolve(), this.options.graceMs)
  }

  /** The hub named the subscriber, and so the shown log: deliveries wait for it. */
  open(shown: ShownLog): void {
    this.shown = shown
    this.opened.resolve(shown)
  }

  /**
   * An event the hub delivers. `kept`: not done yet, the hub hears 'handled' when it is (confirmed
   * in context, read with inbox, or sent down the ladder); anything else acknowledges it now.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: what the hub client's onDeliver returns
  async deliver(event: StoredEvent): Promise<void | 'kept'> {
    await this.listening
    const shown = await this.opened.promise
    // Shown before, by this channel or the one before it: not written again. One the transcript
    // shows in context goes through the confirmer all the same, which says so again: the hub sends
    // again what it did not see acknowledged, and a hub that died before it stored the in_context
    // receipt would otherwise keep the event `written` for good.
    if (shown.has(event.id) && !(this.confirmsChannel() && this.inContext(event.id))) return
    if (this.chosen === 'channel') return this.show(event, shown)
    return this.tell(event)
  }

  /**
   * What the inbox tool lists, newest first. Those read only now are done: recorded as shown first,
   * so a channel started after a crash does not show them again.
   */
  readInbox(limit: number): StoredEvent[] {
    const { events, newlyRead } = this.inbox.take(limit)
    for (const event of newlyRead) this.handled(event)
    return events
  }

  /**
   * The transport saw a channel notification reach Claude Code's pipe (recording-transport.ts).
   * Confirming, an event is recorded as shown once it is in context, not once it is written.
   */
  written(id: string): void {
    if (!this.options.confirming) this.shown?.record(id)
  }

  close(): void {
    this.transcript.stop()
    this.confirmer.close()
    this.shown?.close()
  }

  private confirmsChannel(): boolean {
    return this.options.confirming && this.chosen === 'channel'
  }

  /** Whether the transcript, read up to now, has this event in Claude's context. */
  private inContext(id: string): boolean {
    this.transcript.refresh()
    return this.transcript.state(id) === 'in_context'
  }

  /** The channel rung: a notification, done once the transcript shows it in context. */
  private async show(event: StoredEvent, shown: ShownLog): Promise<'kept' | undefined> {
    this.inbox.add(event, true)
    if (this.options.confirming) {
      await this.confirmer.deliver(event)
      return 'kept'
    }
    // The transport records it the moment its bytes are in the pipe (recording-transport.ts); once
    // the write has completed it is recorded here at the latest, and only then acknowledged: a
    // crash in between shows it again at worst, and never loses it.
    await this.options.claude.show(event)
    shown.record(event.id)
    return undefined
  }

  /**
   * Rung 5: a client without channels gets a line it can act on, and reads the event with inbox.
   * Nothing says it read the line, so the event stays the hub's until inbox returns it.
   */
  private async tell(event: StoredEvent): Promise<'kept'> {
    if (this.inbox.state(event.id) === 'absent') {
      this.inbox.add(event, false)
      const from = event.sender ? `${event.sender} via ${event.source}` : event.source
      await this.options.claude.notice(
        `New event ${event.id} from ${from} (topic ${event.topic}): call the inbox tool to read it.`,
      )
    }
    return 'kept'
  }

  /** Shown and done: recorded, then acknowledged. */
  private handled(event: StoredEvent): void {
    this.shown?.record(event.id)
    this.emit('handled', event.id)
  }
}

function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => {
    resolve = r
  })
  return { promise, resolve }
}
