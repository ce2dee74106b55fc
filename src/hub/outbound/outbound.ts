// Rung 6 of the delivery ladder: outbound webhooks for stateless consumers. Each is a durable
// subscriber inside the hub whose deliveries are POSTed as JSON, signed with an HMAC of the body,
// retried with exponential backoff, and dead-lettered after the last attempt; every attempt is logged.
// One that asked is also told of its events' receipts (outbound-receipts.ts), the same way.
import { createHmac } from 'node:crypto'
import { eventMeta, type StoredEvent } from '../../core/event.js'
import { newId, newSecret } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import type { Lease, OutboundWebhook, QueuedReceipt } from '../../store/store.js'
import type { Hub, RecordedReceipt } from '../core/hub.js'
import { subscriberLease, type WorkSource } from '../core/lease-keeper.js'
import { queueForWebhooks, ReceiptSender, receiptBody } from './outbound-receipts.js'

const TIMEOUT_MS = 10_000
export const SIGNATURE_HEADER = 'x-switchboard-signature-256'

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

export class OutboundWebhooks {
  /** The receipt senders of the webhooks whose lease this hub holds. */
  private readonly senders = new Map<string, ReceiptSender>()

  constructor(
    private readonly hub: Hub,
    private readonly log: Logger,
  ) {}

  /** A receipt recorded (HubEvents.receipt): queued for the webhooks that asked for receipts. */
  async receipt(subscriber: string, receipt: RecordedReceipt): Promise<void> {
    for (const name of await queueForWebhooks(this.hub.store, subscriber, receipt))
      this.senders.get(name)?.kick()
  }

  /**
   * Each stored webhook is work for one hub at a time: it is POSTed to from the hub holding its
   * subscriber's lease, and what waited while no hub did goes out once one takes it.
   */
  work(): WorkSource {
    return {
      wanted: async () =>
        new Map(
          (await this.hub.store.listOutboundWebhooks()).map((webhook) => [
            subscriberLease(webhook.name),
            {
              start: (lease) => this.attach(webhook, lease),
              stop: async () => {
                this.senders.get(webhook.name)?.stop()
                this.senders.delete(webhook.name)
                this.hub.detach(webhook.name)
              },
            },
          ]),
        ),
    }
  }

  async add(input: {
    url: string
    topics: string[]
    maxAttempts: number
    backoffMs: number
    receipts: boolean
  }): Promise<OutboundWebhook> {
    const webhook = await this.hub.store.addOutboundWebhook({
      name: `webhook:${newId('out')}`,
      url: input.url,
      secret: newSecret('sbo'),
      maxAttempts: input.maxAttempts,
      backoffMs: input.backoffMs,
      receipts: input.receipts,
    })
    await this.hub.store.registerSubscriber(webhook.name, input.topics, { peer: false })
    await this.hub.leases.tickNow()
    return webhook
  }

  /** Stops POSTing to a webhook and forgets it, its queue and its log. False when there was none. */
  async remove(name: string): Promise<boolean> {
    this.senders.get(name)?.stop()
    this.senders.delete(name)
    await this.hub.forget(name)
    return this.hub.store.removeOutboundWebhook(name)
  }

  private attach(webhook: OutboundWebhook, lease: Lease): Promise<void> {
    if (webhook.receipts && !this.senders.has(webhook.name))
      this.senders.set(
        webhook.name,
        new ReceiptSender(webhook, this.hub.store, this.log, (r, attempt) => this.tell(webhook, r, attempt)),
      )
    return this.hub.attachConsumer(webhook.name, (event) => this.deliver(webhook, event), lease)
  }

  /** One attempt at POSTing a receipt; the error, or null when the receiver said 2xx. */
  private async tell(webhook: OutboundWebhook, r: QueuedReceipt, attempt: number): Promise<string | null> {
    const { status, error } = await post(webhook, receiptBody(r), {
      'x-switchboard-event-id': r.eventId,
      'x-switchboard-kind': 'receipt',
      'idempotency-key': `${r.eventId}:${r.subscriber}:${r.stage}`,
    })
    await this.hub.store.logOutbound({
      webhook: webhook.name,
      kind: 'receipt',
      eventId: r.eventId,
      attempt,
      status,
      error,
    })
    return error
  }

  /** Tries until the receiver says 2xx or the attempts run out; never throws. */
  private async deliver(webhook: OutboundWebhook, event: StoredEvent): Promise<void> {
    const body = JSON.stringify({
      id: event.id,
      topic: event.topic,
      content: event.content,
      meta: eventMeta(event),
      created_at: event.created_at,
    })
    for (let attempt = 1; attempt <= webhook.maxAttempts; attempt++) {
      const { status, error } = await post(webhook, body, {
        'x-switchboard-event-id': event.id,
        'idempotency-key': event.id,
      })
      await this.hub.store.logOutbound({ webhook: webhook.name, eventId: event.id, attempt, status, error })
      if (!error) return
      if (attempt < webhook.maxAttempts)
        await new Promise((r) => setTimeout(r, webhook.backoffMs * 2 ** (attempt - 1)))
    }
    await this.hub.store.addDeadLetter({
      kind: 'webhook',
      target: webhook.url,
      payload: { webhook: webhook.name, event: event.id },
      reason: `no 2xx after ${webhook.maxAttempts} attempts`,
    })
    this.log.warn({ webhook: webhook.name, event: event.id }, 'outbound webhook dead-lettered')
  }
}

/** One signed POST to a webhook: the receiver's status (null when unreachable) and what went wrong, if anything. */
async function post(
  webhook: OutboundWebhook,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number | null; error: string | null }> {
  try {
    const res = await fetch(webhook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signBody(webhook.secret, body),
        ...headers,
      },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    await res.arrayBuffer().catch(() => {})
    return { status: res.status, error: res.ok ? null : `receiver answered ${res.status}` }
  } catch (err) {
    return { status: null, error: (err as Error).message }
  }
}
