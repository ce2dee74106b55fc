// Live SSE streams of HTTP senders. What is written here was stored in the outbox first,
// so a sender who reconnects (Last-Event-ID) or was away gets it then.
import type { ServerResponse } from 'node:http'
import type { OutboxItem, Store } from '../../store/store.js'
import type { SenderOutbox } from '../people/sender-outbox.js'

/** A phone, a laptop and a tab or two; more from one sender is a leak or an attack. */
export const MAX_STREAMS_PER_SENDER = 4

export function sseFrame(item: OutboxItem): string {
  return `id: ${item.id}\nevent: ${item.kind}\ndata: ${JSON.stringify(item.body)}\n\n`
}

/** An open stream and the latest item written to it. */
interface Stream {
  res: ServerResponse
  last: number
}

export class SenderStreams {
  private readonly open = new Map<string, Set<Stream>>()
  /**
   * Per sender, the attach, show or catch-up under way: each writes and then marks what it wrote as
   * streamed, and the next waits for both, so that none writes an item another has written and not
   * yet marked, and no item is stored while a stream opens without one of them writing it to it.
   */
  private readonly turns = new Map<string, Promise<void>>()
  /** Per sender, streams attached and not yet kept or dropped: they count against the limit too. */
  private readonly opening = new Map<string, number>()

  constructor(
    private readonly store: Store,
    /** Where the items are read, as their messages. */
    private readonly outbox: SenderOutbox,
  ) {}

  /** Asked right before attach, with no wait between: attach takes its place at once. */
  hasRoom(senderId: string): boolean {
    const taken = (this.open.get(senderId)?.size ?? 0) + (this.opening.get(senderId) ?? 0)
    return taken < MAX_STREAMS_PER_SENDER
  }

  /**
   * Replays what the sender missed, then keeps the stream for items stored from now on. "From now
   * on" is an id: a notice from the database naming an older item (anyone may send one) shows nothing.
   */
  attach(senderId: string, res: ServerResponse, lastEventId: number | null): Promise<void> {
    this.opening.set(senderId, (this.opening.get(senderId) ?? 0) + 1)
    const attached = this.inTurn(senderId, async () => {
      const stream: Stream = { res, last: lastEventId ?? (await this.outbox.lastId(senderId)) }
      const missed = await this.outbox.items(senderId, lastEventId)
      this.write(stream, missed)
      if (missed.length) await this.store.markStreamed(missed.map((m) => m.id))
      if (res.destroyed) return
      const set = this.open.get(senderId) ?? new Set<Stream>()
      this.open.set(senderId, set)
      set.add(stream)
      res.on('close', () => {
        set.delete(stream)
        if (set.size === 0 && this.open.get(senderId) === set) this.open.delete(senderId)
      })
    })
    return attached.finally(() => {
      const left = (this.opening.get(senderId) ?? 1) - 1
      if (left > 0) this.opening.set(senderId, left)
      else this.opening.delete(senderId)
    })
  }

  /** Whether a sender may still be shown anything: blocked or removed from any surface, it may not. */
  async mayReceive(senderId: string): Promise<boolean> {
    const sender = await this.store.senderById(senderId)
    return sender?.status === 'allowed' && sender.kind === 'token'
  }

  /** Ends every stream of a sender who may no longer receive (see mayReceive). */
  closeSender(senderId: string): void {
    for (const { res } of this.open.get(senderId) ?? []) res.end()
    this.open.delete(senderId)
  }

  /**
   * An item the hub stored for a sender (see SenderOutbox), shown on the sender's open streams that
   * have not had it. One stored on another hub in the meantime with a lower id is left to catchUp.
   */
  async show(item: OutboxItem): Promise<void> {
    if (!this.open.get(item.senderId)?.size && !this.turns.has(item.senderId)) return
    await this.inTurn(item.senderId, async () => {
      if (!this.open.get(item.senderId)?.size) return
      if (!(await this.mayReceive(item.senderId))) return this.closeSender(item.senderId)
      let shown = false
      for (const stream of this.open.get(item.senderId) ?? [])
        if (item.id > stream.last) shown = this.write(stream, [item]) || shown
      if (shown) await this.store.markStreamed([item.id])
    })
  }

  /**
   * Writes what no stream was given yet to the senders with a stream here: items another hub stored
   * whose notice this hub may have missed (see hub/core/other-hubs.ts).
   */
  async catchUp(): Promise<void> {
    for (const senderId of [...this.open.keys()])
      await this.inTurn(senderId, async () => {
        if (!(await this.mayReceive(senderId))) return this.closeSender(senderId)
        const missed = await this.outbox.items(senderId, null)
        for (const stream of this.open.get(senderId) ?? []) this.write(stream, missed)
        if (missed.length) await this.store.markStreamed(missed.map((m) => m.id))
      })
  }

  /** Runs `work` after the sender's turns before it; a failed one does not stop the next. */
  private inTurn(senderId: string, work: () => Promise<void>): Promise<void> {
    const run = (this.turns.get(senderId) ?? Promise.resolve()).then(work)
    const tail = run.catch(() => {})
    this.turns.set(senderId, tail)
    void tail.then(() => {
      if (this.turns.get(senderId) === tail) this.turns.delete(senderId)
    })
    return run
  }

  /** True when something was written. */
  private write(stream: Stream, items: OutboxItem[]): boolean {
    for (const item of items) {
      stream.res.write(sseFrame(item))
      stream.last = Math.max(stream.last, item.id)
    }
    return items.length > 0
  }

  closeAll(): void {
    for (const set of this.open.values()) for (const { res } of set) res.end()
    this.open.clear()
  }
}
