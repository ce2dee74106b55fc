// One connected channel: pushes its durable queue in order and keeps a bounded window in flight.
import type { WebSocket } from 'ws'
import type { ServerMessage } from '../core/hub-protocol.js'
import type { Logger } from '../core/log.js'
import type { Store } from '../store/store.js'

const WINDOW = 256

export class SubscriberConnection {
  private lastSentSeq = 0
  private inFlight = 0
  private pumping = false
  private again = false
  private windowFull = false
  private closed = false

  constructor(
    readonly name: string,
    private readonly ws: WebSocket,
    private readonly store: Store,
    private readonly log: Logger,
  ) {}

  send(message: ServerMessage): void {
    if (!this.closed) this.ws.send(JSON.stringify(message))
  }

  /** Sends whatever is pending and not yet in flight. Calls that arrive mid-pump run it once more. */
  async pump(): Promise<void> {
    if (this.pumping) {
      this.again = true
      return
    }
    this.pumping = true
    try {
      do {
        this.again = false
        while (!this.closed && this.inFlight < WINDOW) {
          const batch = await this.store.pendingDeliveries(
            this.name,
            this.lastSentSeq,
            WINDOW - this.inFlight,
          )
          if (batch.length === 0) break
          for (const event of batch) {
            this.send({ type: 'deliver', event })
            this.lastSentSeq = event.seq
            this.inFlight++
          }
        }
        this.windowFull = this.inFlight >= WINDOW
      } while (this.again && !this.closed)
    } catch (err) {
      this.log.error({ err, subscriber: this.name }, 'delivery pump failed')
    } finally {
      this.pumping = false
    }
  }

  async ack(eventId: string): Promise<void> {
    await this.store.ack(this.name, eventId)
    this.inFlight = Math.max(0, this.inFlight - 1)
    if (this.windowFull) await this.pump()
  }

  close(): void {
    this.closed = true
  }

  terminate(): void {
    this.ws.terminate()
  }
}
