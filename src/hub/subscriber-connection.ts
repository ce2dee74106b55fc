// One connected channel: pushes its durable queue in order with a bounded window in flight.
// A caught-up subscriber gets new events straight from the commit, without reading them back.
import type { StoredEvent } from '../core/event.js'
import type { ServerMessage } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import type { Store } from '../store/store.js'

/** Where deliveries go: a channel's WebSocket, or a session the hub drives. */
export interface DeliverySink {
  send(message: ServerMessage): void
  terminate(): void
}

const WINDOW = 1024
/** Acks reach the store in batches: off the delivery path, one write for many events. */
const ACK_FLUSH_MS = 20

export class SubscriberConnection {
  /** Seqs sent and not yet acknowledged, oldest first. */
  private readonly inFlight: number[] = []
  private lastSentSeq = 0
  /** True while the store may hold pending deliveries that were not sent yet. */
  private backlog = true
  private pumping = false
  private again = false
  private closed = false
  /** Set when a hook takes this subscriber's events: pushes stop, the store keeps them for the hook. */
  private held = false
  private ackedSeq = 0
  private ackFlush: NodeJS.Timeout | null = null

  constructor(
    readonly name: string,
    private readonly sink: DeliverySink,
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  send(message: ServerMessage): void {
    if (!this.closed) this.sink.send(message)
  }

  /** The rung the subscriber said it takes; a `message` one may be fed by a hook instead. */
  rung: 'channel' | 'message' = 'channel'

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
   * subscriber gets it at once; otherwise the pump reads it from the store once it is written.
   */
  offer(event: StoredEvent): void {
    if (this.held) return
    if (event.seq <= this.lastSentSeq) return // a pump read it already
    if (this.backlog || this.pumping || this.inFlight.length >= WINDOW) {
      this.backlog = true // written() starts the pump
      return
    }
    this.deliver(event)
  }

  /**
   * An event for this subscriber is written (or failed to be). One it was not sent, because it was
   * behind or connected after the event was staged, is read from the store now.
   */
  written(seq: number): void {
    if (!this.held && seq > this.lastSentSeq) void this.pump()
  }

  /** Sends what the store holds beyond what is in flight. Calls that arrive mid-pump run it once more. */
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
        while (!this.closed && this.inFlight.length < WINDOW) {
          const room = WINDOW - this.inFlight.length
          const batch = await this.store.pendingDeliveries(this.name, this.lastSentSeq, room)
          for (const event of batch) this.deliver(event)
          if (batch.length < room) {
            this.backlog = false
            break
          }
        }
      } while (this.again && !this.closed)
    } catch (err) {
      this.log.error({ err, subscriber: this.name }, 'delivery pump failed')
    } finally {
      this.pumping = false
    }
  }

  /**
   * Acks are cumulative and stored within ACK_FLUSH_MS. A hub that dies inside that window sends
   * those events again; the channel that got them recognises them (see channel/inbox.ts).
   */
  ack(seq: number): void {
    if (seq <= this.ackedSeq) return
    this.ackedSeq = seq
    while (this.inFlight.length && (this.inFlight[0] as number) <= seq) this.inFlight.shift()
    this.ackFlush ??= setTimeout(() => this.flushAcks(), ACK_FLUSH_MS)
    if (this.backlog) void this.pump()
  }

  private flushAcks(): void {
    this.ackFlush = null
    this.store
      .ackUpTo(this.name, this.ackedSeq)
      .catch((err) => this.log.error({ err, subscriber: this.name }, 'ack not stored'))
  }

  close(): void {
    this.closed = true
    if (this.ackFlush) {
      clearTimeout(this.ackFlush)
      this.flushAcks()
    }
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
