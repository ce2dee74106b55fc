// Live SSE streams of HTTP senders. What is written here was stored in the outbox first,
// so a sender who reconnects (Last-Event-ID) or was away gets it then.
import type { ServerResponse } from 'node:http'
import type { OutboxItem, Store } from '../../store/store.js'

/** A phone, a laptop and a tab or two; more from one sender is a leak or an attack. */
export const MAX_STREAMS_PER_SENDER = 4

export function sseFrame(item: OutboxItem): string {
  return `id: ${item.id}\nevent: ${item.kind}\ndata: ${JSON.stringify(item.body)}\n\n`
}

export class SenderStreams {
  private readonly open = new Map<string, Set<ServerResponse>>()

  constructor(private readonly store: Store) {}

  hasRoom(senderId: string): boolean {
    return (this.open.get(senderId)?.size ?? 0) < MAX_STREAMS_PER_SENDER
  }

  /** Replays what the sender missed, then keeps the stream for live items. */
  async attach(senderId: string, res: ServerResponse, lastEventId: number | null): Promise<void> {
    const missed = await this.store.outboxFor(senderId, lastEventId)
    for (const item of missed) res.write(sseFrame(item))
    if (missed.length) await this.store.markStreamed(missed.map((m) => m.id))
    const set = this.open.get(senderId) ?? new Set<ServerResponse>()
    this.open.set(senderId, set)
    set.add(res)
    res.on('close', () => {
      set.delete(res)
      if (set.size === 0) this.open.delete(senderId)
    })
  }

  /** Whether a sender may still be shown anything: blocked or removed from any surface, it may not. */
  async mayReceive(senderId: string): Promise<boolean> {
    const sender = await this.store.senderById(senderId)
    return sender?.status === 'allowed' && sender.kind === 'token'
  }

  /** Ends every stream of a sender who may no longer receive (see mayReceive). */
  closeSender(senderId: string): void {
    for (const res of this.open.get(senderId) ?? []) res.end()
    this.open.delete(senderId)
  }

  /** An item the hub stored for a sender (see SenderOutbox), shown on the sender's open streams. */
  async show(item: OutboxItem): Promise<void> {
    const set = this.open.get(item.senderId)
    if (!set?.size) return
    if (!(await this.mayReceive(item.senderId))) return this.closeSender(item.senderId)
    const frame = sseFrame(item)
    for (const res of set) res.write(frame)
    await this.store.markStreamed([item.id])
  }

  /**
   * Writes what no stream was given yet to the senders with a stream here: items another hub stored
   * whose notice this hub may have missed (see hub/core/other-hubs.ts).
   */
  async catchUp(): Promise<void> {
    for (const senderId of [...this.open.keys()]) {
      if (!(await this.mayReceive(senderId))) {
        this.closeSender(senderId)
        continue
      }
      const missed = await this.store.outboxFor(senderId, null)
      for (const item of missed) for (const res of this.open.get(senderId) ?? []) res.write(sseFrame(item))
      if (missed.length) await this.store.markStreamed(missed.map((m) => m.id))
    }
  }

  closeAll(): void {
    for (const set of this.open.values()) for (const res of set) res.end()
    this.open.clear()
  }
}
