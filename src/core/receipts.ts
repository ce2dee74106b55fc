// Delivery receipts (issue 23): per event and subscriber, when the hub stored it, when it was written
// to the session, and when Claude Code's own record shows it in Claude's context. Defined once here:
// the hub protocol's receipt message, the store, the API and the dashboard all read these.
import * as z from 'zod'

/** What a subscriber reports of an event (the hub records `stored` itself, at commit). */
export const receiptStageSchema = z.enum(['written', 'queued', 'in_context', 'unconfirmed'])
export type ReceiptStage = z.infer<typeof receiptStageSchema>

/** Where a delivery is: stored, written, queued (in Claude Code's queue, not in context yet), in context, or given up on. */
export const deliveryStateSchema = z.enum(['stored', 'written', 'queued', 'in_context', 'unconfirmed'])
export type DeliveryState = z.infer<typeof deliveryStateSchema>

/**
 * What a listing of events filters on: a delivery's state, or `parked`, an event no subscriber has a
 * delivery of (none wanted it; it waits for one that comes to).
 */
export const EVENT_STATES = [...deliveryStateSchema.options, 'parked'] as const
export const eventStateSchema = z.enum(EVENT_STATES, { error: `must be one of ${EVENT_STATES.join(', ')}` })
export type EventState = z.infer<typeof eventStateSchema>

/** How far each state is along: a late `written` never undoes `in_context`. */
export const STATE_RANK: Record<DeliveryState, number> = {
  stored: 0,
  written: 1,
  queued: 2,
  unconfirmed: 3,
  in_context: 4,
}

/** One subscriber's delivery of one event, as the store keeps it (times in ms). */
export interface DeliveryReceipt {
  subscriber: string
  state: DeliveryState
  stored: number | null
  written: number | null
  inContext: number | null
  tries: number
  /** Why it is unconfirmed. */
  reason: string | null
}

/** The same, as the API answers it: ISO times or null. */
export interface ReceiptView {
  subscriber: string
  state: DeliveryState
  stored: string | null
  written: string | null
  in_context: string | null
  tries: number
  reason: string | null
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString())

export function receiptView(r: DeliveryReceipt): ReceiptView {
  return {
    subscriber: r.subscriber,
    state: r.state,
    stored: iso(r.stored),
    written: iso(r.written),
    in_context: iso(r.inContext),
    tries: r.tries,
    reason: r.reason,
  }
}
