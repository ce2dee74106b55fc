// Receipts for the outbound webhooks that asked (issue 23): when an event of a webhook's topics is
// in a session's context, or ends unconfirmed, the webhook is POSTed a signed receipt. Each is queued
// in the store first (so a hub that stops sends it once it is back), told once per event, session and
// stage, retried with the webhook's backoff, and dead-lettered after its last attempt.
import { topicMatches } from '../../core/event.js'
import type { Logger } from '../../core/log.js'
import type { OutboundWebhook, QueuedReceipt, Store } from '../../store/store.js'
import type { RecordedReceipt } from '../core/hub.js'

/** What a webhook is told: one JSON body per receipt. */
export function receiptBody(r: QueuedReceipt): string {
  return JSON.stringify({
    type: 'receipt',
    event_id: r.eventId,
    topic: r.topic,
    session: r.subscriber,
    stage: r.stage,
    at: new Date(r.at).toISOString(),
    tries: r.tries,
    reason: r.reason,
  })
}

/** A receipt another hub queued is found this often at the latest (a local one at once). */
const BACKSTOP_MS = 5_000
const BATCH = 50

/** Which webhooks are told of this receipt; queues it for them. The names of those it was queued for. */
export async function queueForWebhooks(
  store: Store,
  subscriber: string,
  r: RecordedReceipt,
): Promise<string[]> {
  if (r.stage !== 'in_context' && r.stage !== 'unconfirmed') return []
  const asked = (await store.listOutboundWebhooks()).filter((w) => w.receipts && w.name !== subscriber)
  if (asked.length === 0) return []
  // A late report of a stage the delivery is past (unconfirmed after in_context) tells nobody.
  const now = (await store.eventReceipts(r.event_id)).find((d) => d.subscriber === subscriber)
  const event = await store.eventById(r.event_id)
  if (!event || now?.state !== r.stage) return []
  const told: string[] = []
  for (const w of asked) {
    const topics = (await store.getSubscriber(w.name))?.topics ?? []
    if (topicMatches(topics, event.topic)) told.push(w.name)
  }
  const notice = {
    eventId: event.id,
    topic: event.topic,
    subscriber,
    stage: r.stage,
    at: r.at,
    tries: r.tries,
    reason: r.reason ?? null,
  }
  return (await store.queueReceipt(told, notice)) > 0 ? told : []
}

/**
 * Sends one webhook's queued receipts, in order, from the hub that holds its lease: at once when
 * one is queued here (kick), when a retry is due, and every few seconds for those other hubs queued.
 */
export class ReceiptSender {
  private running = false
  private again = false
  private stopped = false
  private retry: NodeJS.Timeout | null = null
  private readonly backstop: NodeJS.Timeout

  constructor(
    private readonly webhook: OutboundWebhook,
    private readonly store: Store,
    private readonly log: Logger,
    /** POSTs the body; the error, or null on a 2xx. Logs the attempt. */
    private readonly post: (r: QueuedReceipt, attempt: number) => Promise<string | null>,
  ) {
    this.backstop = setInterval(() => this.kick(), BACKSTOP_MS)
    this.backstop.unref()
    this.kick()
  }

  kick(): void {
    if (this.stopped) return
    if (this.running) {
      this.again = true
      return
    }
    this.running = true
    void this.drain()
      .catch((err) =>
        this.log.error({ err, webhook: this.webhook.name }, 'receipts not sent; tried again soon'),
      )
      .finally(() => {
        this.running = false
        if (this.again) {
          this.again = false
          this.kick()
        }
      })
  }

  stop(): void {
    this.stopped = true
    clearInterval(this.backstop)
    if (this.retry) clearTimeout(this.retry)
  }

  private async drain(): Promise<void> {
    const { name, maxAttempts, backoffMs, url } = this.webhook
    for (;;) {
      const due = await this.store.dueReceipts(name, Date.now(), BATCH)
      if (due.length === 0) return
      for (const r of due) {
        if (this.stopped) return
        const attempt = r.attempts + 1
        const error = await this.post(r, attempt)
        if (!error || attempt >= maxAttempts) {
          await this.store.receiptTried(r.id, null)
          if (error) {
            await this.store.addDeadLetter({
              kind: 'webhook',
              target: url,
              payload: {
                webhook: name,
                receipt: { event: r.eventId, session: r.subscriber, stage: r.stage },
              },
              reason: `no 2xx after ${maxAttempts} attempts`,
            })
            this.log.warn({ webhook: name, event: r.eventId }, 'outbound receipt dead-lettered')
          }
          continue
        }
        // The receiver failed: this one is due again after its backoff, and the rest wait for the
        // next pass rather than meet a failing receiver now.
        const wait = backoffMs * 2 ** (attempt - 1)
        await this.store.receiptTried(r.id, Date.now() + wait)
        if (this.retry) clearTimeout(this.retry)
        this.retry = setTimeout(() => this.kick(), wait)
        this.retry.unref()
        return
      }
    }
  }
}
