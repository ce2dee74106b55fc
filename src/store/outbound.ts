// The Store's outbound area: webhooks that get each event POSTed to them, the receipts those that
// asked are told (issue 23), and the log of those attempts.
export interface OutboundWebhook {
  name: string
  url: string
  secret: string
  maxAttempts: number
  backoffMs: number
  /** Also told when an event of its topics is in a session's context, or ends unconfirmed. */
  receipts: boolean
  createdAt: number
}

export interface OutboundAttempt {
  webhook: string
  /** What was POSTed: an event, or a receipt of one. */
  kind: 'event' | 'receipt'
  eventId: string
  attempt: number
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null
  error: string | null
  at: number
}

/** What a webhook is told of an event's delivery to one session (core/receipts.ts). */
export interface ReceiptNotice {
  eventId: string
  topic: string
  /** The session: the subscriber that reported it. */
  subscriber: string
  stage: 'in_context' | 'unconfirmed'
  at: number
  tries: number
  reason: string | null
}

/** A notice waiting for its webhook: POSTed once it is due, again after a failure, until the attempts run out. */
export interface QueuedReceipt extends ReceiptNotice {
  id: number
  webhook: string
  /** Attempts made so far. */
  attempts: number
}

export interface OutboundStore {
  addOutboundWebhook(
    input: Omit<OutboundWebhook, 'createdAt' | 'receipts'> & { receipts?: boolean },
  ): Promise<OutboundWebhook>
  listOutboundWebhooks(): Promise<OutboundWebhook[]>
  /** Forgets a webhook, its delivery log and the receipts waiting for it. False when there was none. */
  removeOutboundWebhook(name: string): Promise<boolean>
  logOutbound(
    attempt: Omit<OutboundAttempt, 'at' | 'kind'> & { kind?: OutboundAttempt['kind'] },
  ): Promise<void>
  outboundLog(webhook: string, limit: number): Promise<OutboundAttempt[]>
  /**
   * Queues the notice for each of these webhooks, due now; one already queued (the same event,
   * session and stage) is not queued again, so each is told once. How many were queued.
   */
  queueReceipt(webhooks: string[], notice: ReceiptNotice): Promise<number>
  /** A webhook's queued receipts due by `now`, oldest first. */
  dueReceipts(webhook: string, now: number, limit: number): Promise<QueuedReceipt[]>
  /** One more attempt made: due again at `retryAt`, or done (sent, or given up) when null. */
  receiptTried(id: number, retryAt: number | null): Promise<void>
}
