// One connected subscriber: pushes its durable queue in order with a bounded window in flight.
// A caught-up subscriber gets new events as they are staged, without reading them back.
import type { StoredEvent } from '../../core/event.js'
import type { ServerMessage } from '../../core/hub-protocol.js'
import type { Logger } from '../../core/log.js'
import type { Fence, Store } from '../../store/store.js'

/** Where deliveries go: a channel's WebSocket, or a session the hub drives. */
export interface DeliverySink {
  send(message: ServerMessage): void
  terminate(): void
}

export interface ConnectionOptions {
  /** Resolves once every event staged so far is written (or failed): see Hub.settled. */
  settled(): Promise<void>
  /**
   * How long acks wait to be stored together. A channel's are batched, off the delivery path; a
   * consumer inside the hub stores each at once, since nothing else would recognise a repeat.
   */
  ackFlushMs?: number
  /** The lease this hub delivers under, when hubs share the store: once lost, nothing more is read. */
  fence?: Fence
}

const WINDOW = 1024
const ACK_FLUSH_MS = 20

export class SubscriberConnection {
  /** Seqs sent on this connection and not yet acknowledged, oldest first. */
  private readonly inFlight: number[] = []
  /** Acknowledged seqs not stored yet: only ever seqs this connection sent. */
  private acked: number[] = []
  private lastSentSeq = 0
  /** True while the store may hold deliveries for this subscriber that were not sent yet. */
  private backlog = true
  private pumping = false
  private again = false
  private closed = false
  /** Set when a hook takes this subscriber's events: pushes stop, the store keeps them for the hook. */
  private held = false
  private ackFlush: NodeJS.Timeout | null = null
  /** The Claude Code session a channel serves, as its hello said (CLAUDE_CODE_SESSION_ID). */
  claudeSession: string | undefined
  /** The session's working folder, as a channel's hello said. */
  folder: string | undefined

  constructor(
    readonly name: string,
    private readonly sink: DeliverySink,
    private readonly store: Store,
    private readonly log: Logger,
    private readonly options: ConnectionOptions,
  ) {}

  send(message: ServerMessage): void {
    if (!this.closed) this.sink.send(message)
  }

  /**
   * The rung the subscriber said it takes; a `message` one may be fed by a hook instead. Null until
   * the channel's MCP client initialized it (a session still starting).
   */
  rung: 'channel' | 'message' | null = null

  hold(): void {
    this.held = true
  }

  /** A `message`-rung subscriber that a hook already feeds is held: the hook takes its events. */
  setRung(rung: 'channel' | 'message', hookFed: boolean): void {
    this.rung = rung
    if (hookFed && rung === 'message') this.hold()
  }

  /**
   * An event for this subscriber, offered before it is written (see Hub.publish). A caught-up
   * subscriber gets it at once; otherwise a pump reads it from the store once it is written.
   */
  offer(event: StoredEvent): void {
    if (this.held || event.seq <= this.lastSentSeq) return
    if (this.backlog || this.pumping || this.inFlight.length >= WINDOW) {
      this.backlog = true
      this.again = true // a pump under way reads once more, after this event is written
      return
    }
    this.deliver(event)
  }

  /** An event for this subscriber is written (or failed to be): one it was not sent is read now. */
  written(seq: number): void {
    if (!this.held && seq > this.lastSentSeq) void this.pump()
  }

  /**
   * Sends what the store holds beyond what was sent. Each read waits until every event staged before
   * it is written, so an event staged before this connection registered is read too, and nothing
   * older can arrive after something newer went out live. Calls that arrive mid-pump read once more.
   */
  async pump(): Promise<void> {
    if (this.held) return
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    try {
      do {
        this.again = false
        await this.options.settled()
        this.backlog = await this.fillWindow()
      } while (this.again && !this.backlog && !this.closed)
    } catch (err) {
      this.log.error({ err, subscriber: this.name }, 'delivery pump failed')
    } finally {
      this.pumping = false
    }
  }

  /** True when the window filled before the store ran out: acks pump the rest. */
  private async fillWindow(): Promise<boolean> {
    while (!this.closed && this.inFlight.length < WINDOW) {
      const room = WINDOW - this.inFlight.length
      const batch = await this.store.pendingDeliveries(this.name, this.lastSentSeq, room, this.options.fence)
      for (const event of batch) this.deliver(event)
      if (batch.length < room) return false
    }
    return !this.closed
  }

  /**
   * Cumulative: every seq this connection sent up to `seq` is done. A seq it did not send is never
   * acknowledged through it, whatever the subscriber says.
   */
  ack(seq: number): void {
    while (this.inFlight.length && (this.inFlight[0] as number) <= seq)
      this.acked.push(this.inFlight.shift() as number)
    const wait = this.options.ackFlushMs ?? ACK_FLUSH_MS
    if (this.acked.length && wait === 0) this.flushAcks()
    else if (this.acked.length) this.ackFlush ??= setTimeout(() => this.flushAcks(), wait)
    if (this.backlog) void this.pump()
  }

  private flushAcks(): void {
    if (this.ackFlush) clearTimeout(this.ackFlush)
    this.ackFlush = null
    const seqs = this.acked
    this.acked = []
    if (seqs.length === 0) return
    // A delivery acknowledged is at least written; a subscriber that proves more said so before.
    this.store
      .ack(this.name, seqs, Date.now())
      .catch((err) => this.log.error({ err, subscriber: this.name }, 'acks not stored'))
  }

  close(): void {
    this.closed = true
    this.flushAcks()
  }

  terminate(): void {
    this.sink.terminate()
  }

  private deliver(event: StoredEvent): void {
    this.send({ type: 'deliver', event })
    this.lastSentSeq = event.seq
    this.inFlight.push(event.seq)
  }
}
