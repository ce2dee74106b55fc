// The Store's receipts area (issue 23): how far each delivery got. `stored` is the event's commit
// (its created_at); `written`, `queued`, `in_context` and `unconfirmed` are what its subscriber
// reported. A state only moves forward (core/receipts.ts STATE_RANK): a late `written` never undoes
// `in_context`.
import type { StoredEvent } from '../core/event.js'
import type { DeliveryReceipt, DeliveryState } from '../core/receipts.js'

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
  /** Every subscriber's delivery of the event: those still pending, and those that reported. */
  eventReceipts(eventId: string): Promise<DeliveryReceipt[]>
  /** A subscriber's unconfirmed events not handed to its hook yet, oldest first; marks them handed. */
  takeUnconfirmed(subscriber: string, limit: number, at: number): Promise<StoredEvent[]>
}
