// Rung 6 of the delivery ladder: outbound webhooks for stateless consumers. Each is a durable
// subscriber inside the hub whose deliveries are POSTed as JSON, signed with an HMAC of the body,
// retried with exponential backoff, and dead-lettered after the last attempt; every attempt is logged.
import { createHmac } from 'node:crypto'
import { eventMeta, type StoredEvent } from '../../core/event.js'
import { newId, newSecret } from '../../core/ids.js'
import type { Logger } from '../../core/log.js'
import type { Lease, OutboundWebhook } from '../../store/store.js'
import type { Hub } from './hub.js'
import { subscriberLease, type WorkSource } from './lease-keeper.js'

const TIMEOUT_MS = 10_000
export const SIGNATURE_HEADER = 'x-switchboard-signature-256'

export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

export class OutboundWebhooks {
  constructor(
    private readonly hub: Hub,
    private readonly log: Logger,
  ) {}

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
              stop: async () => this.hub.detach(webhook.name),
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
  }): Promise<OutboundWebhook> {
    const webhook = await this.hub.store.addOutboundWebhook({
      name: `webhook:${newId('out')}`,
      url: input.url,
      secret: newSecret('sbo'),
      maxAttempts: input.maxAttempts,
      backoffMs: input.backoffMs,
    })
    await this.hub.store.registerSubscriber(webhook.name, input.topics, { peer: false })
    await this.hub.leases.tickNow()
    return webhook
  }

  /** Stops POSTing to a webhook and forgets it, its queue and its log. False when there was none. */
  async remove(name: string): Promise<boolean> {
    await this.hub.forget(name)
    return this.hub.store.removeOutboundWebhook(name)
  }

  private attach(webhook: OutboundWebhook, lease: Lease): Promise<void> {
    return this.hub.attachConsumer(webhook.name, (event) => this.deliver(webhook, event), lease)
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
      let status: number | null = null
      let error: string | null = null
      try {
        const res = await fetch(webhook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [SIGNATURE_HEADER]: signBody(webhook.secret, body),
            'x-switchboard-event-id': event.id,
            'idempotency-key': event.id,
          },
          body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        })
        status = res.status
        await res.arrayBuffer().catch(() => {})
        if (!res.ok) error = `receiver answered ${res.status}`
      } catch (err) {
        error = (err as Error).message
      }
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
