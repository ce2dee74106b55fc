// What the hub has to tell a sender (a reply, a permission prompt): stored first, so a sender who
// was away gets it when they come back, then handed to the surfaces that show senders' items (the
// HTTP streams, the chat bridges). The core knows them only as listeners. Every item is written as a
// message of core/outbox.ts and read back through it here: one that does not read (a newer hub's
// kind, a row written by hand) is logged and skipped, and the items after it are still shown.
import { type OutboxMessage, readOutboxMessage } from '../../core/outbox.js'
import type { OutboxItem, Store, StoredOutboxItem } from '../../store/store.js'

/**
 * Shows a stored item where its sender is, if it can, and marks it shown. A surface that owns the
 * sender says how it went: `queued` when it cannot show it now and will later (a chat platform that
 * is down), or a note for the one who sent it (`sent (message 17)`).
 */
export type OutboxListener = (item: OutboxItem) => Promise<ShownOutcome | undefined>

/** What a surface that owns the sender said about an item: `refused` when it can never be shown. */
export interface ShownOutcome {
  queued: boolean
  note: string
  refused?: boolean
}

/** Where an unreadable item is reported (the hub's log). */
export type Unreadable = (item: { id: number; senderId: string; kind: string }, reason: string) => void

/** A CLI command's outbox (no hub in its process): an unreadable item is said on stderr. */
export const unreadableOnStderr: Unreadable = (item, reason) => {
  process.stderr.write(`outbox item ${item.id} skipped: ${reason}\n`)
}

/** Unreadable items already reported: a stream's catch-up reads them again, and says so once. */
const REPORTED = 1000

export class SenderOutbox {
  private readonly listeners: OutboxListener[] = []
  private readonly reported = new Set<number>()
  private readonly catchUps: (() => Promise<void>)[] = []

  constructor(
    private readonly store: Store,
    private readonly unreadable: Unreadable,
  ) {}

  listen(listener: OutboxListener): void {
    this.listeners.push(listener)
  }

  /** Surfaces that can look in the store for what they were not shown (see catchUp). */
  onCatchUp(catchUp: () => Promise<void>): void {
    this.catchUps.push(catchUp)
  }

  /** Another hub may have stored items whose notice went unheard: every surface looks. */
  async catchUp(): Promise<void> {
    for (const catchUp of this.catchUps) await catchUp()
  }

  /** An item another hub stored: the surfaces here show it if its sender is here. */
  async storedElsewhere(senderId: string, itemId: number): Promise<void> {
    const item = (await this.items(senderId, itemId - 1)).find((i) => i.id === itemId)
    if (item) for (const listener of this.listeners) await listener(item)
  }

  /** Stores a message for a sender, then hands it to the surfaces; with what the one owning the sender said. */
  async send(senderId: string, message: OutboxMessage): Promise<ShownOutcome | undefined> {
    const item = await this.store.addOutbox(senderId, message)
    let outcome: ShownOutcome | undefined
    for (const listener of this.listeners) outcome = (await listener(item)) ?? outcome
    return outcome
  }

  /** A sender's items after `afterId`, or when null, the ones never written to any stream. */
  async items(senderId: string, afterId: number | null): Promise<OutboxItem[]> {
    return this.read(await this.store.outboxFor(senderId, afterId))
  }

  /** A sender's items about a decision's code, oldest first. */
  async about(senderId: string, ref: string): Promise<OutboxItem[]> {
    return this.read(await this.store.outboxAbout(senderId, ref))
  }

  /** The id of the sender's latest item, read or not; 0 when it has none. */
  lastId(senderId: string): Promise<number> {
    return this.store.lastOutboxId(senderId)
  }

  private read(stored: StoredOutboxItem[]): OutboxItem[] {
    return stored.flatMap((item) => {
      const read = readOutboxMessage(item.kind, item.body)
      if (read.ok)
        return [
          {
            ...read.message,
            id: item.id,
            senderId: item.senderId,
            receipt: item.receipt,
            createdAt: item.createdAt,
          },
        ]
      // Left unshown rather than marked: a newer hub on the same store may read it.
      if (!this.reported.has(item.id)) {
        this.reported.add(item.id)
        if (this.reported.size > REPORTED) this.reported.delete(this.reported.values().next().value as number)
        this.unreadable({ id: item.id, senderId: item.senderId, kind: item.kind }, read.reason)
      }
      return []
    })
  }
}
