// The Store's receipts area (issue 23): how far each delivery got. `stored` is the event's commit
// (its created_at); `written`, `queued`, `in_context` and `unconfirmed` are what its subscriber
// reported. A state only moves forward (core/receipts.ts STATE_RANK): a late `written` never undoes
// `in_context`.
import type { StoredEvent } from '../core/event.js'
import type { DeliveryReceipt, DeliveryState, EventState } from '../core/receipts.js'

/** What a listing of events asks for (ReceiptStore.findEvents). */
export interface EventFilter {
  /** Held in the content, in any case. */
  text?: string
  source?: string
  topic?: string
  /** Delivered to this subscriber (pending, or reported on). */
  subscriber?: string
  /** A delivery in this state (the subscriber's, when named); `parked`: no delivery at all. */
  state?: EventState
  /** Before this seq: the next page. */
  beforeSeq?: number
  limit: number
}

export interface ReceiptStore {
  /** Records a subscriber's report on an event. */
  recordReceipt(r: {
    eventId: string
    subscriber: string
    state: Exclude<DeliveryState, 'stored'>
    at: number
    tries: number
    reason?: string | null
  }): Promise<void>
  /** The event with this id, or null. */
  eventById(id: string): Promise<StoredEvent | null>
  /**
   * Stored events, newest first, as people read the log and its deliveries (GET /api/events, events
   * list): those the filter asks for, a page at a time.
   */
  findEvents(filter: EventFilter): Promise<StoredEvent[]>
  /** Every subscriber's delivery of the event: those still pending, and those that reported. */
  eventReceipts(eventId: string): Promise<DeliveryReceipt[]>
  /** A subscriber's unconfirmed events not handed to its hook yet, oldest first; marks them handed. */
  takeUnconfirmed(subscriber: string, limit: number, at: number): Promise<StoredEvent[]>
  /**
   * Undoes a hook's take of `events` (a pendingDeliveries + ack, or takeUnconfirmed) whose answer
   * never reached the session: an unconfirmed one waits for the hook again, an acknowledged one is
   * pending again, its receipt back at `stored` with `reason`. In one transaction.
   */
  handBack(subscriber: string, events: readonly StoredEvent[], reason: string, at: number): Promise<void>
}
