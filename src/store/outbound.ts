// The Store's outbound area: webhooks that get each event POSTed to them, and the log of those attempts.
export interface OutboundWebhook {
  name: string
  url: string
  secret: string
  maxAttempts: number
  backoffMs: number
  createdAt: number
}

export interface OutboundAttempt {
  webhook: string
  eventId: string
  attempt: number
  /** The receiver's HTTP status, or null when it could not be reached. */
  status: number | null
  error: string | null
  at: number
}

export interface OutboundStore {
  addOutboundWebhook(input: Omit<OutboundWebhook, 'createdAt'>): Promise<OutboundWebhook>
  listOutboundWebhooks(): Promise<OutboundWebhook[]>
  /** Forgets a webhook and its delivery log. False when there was none. */
  removeOutboundWebhook(name: string): Promise<boolean>
  logOutbound(attempt: Omit<OutboundAttempt, 'at'>): Promise<void>
  outboundLog(webhook: string, limit: number): Promise<OutboundAttempt[]>
}
