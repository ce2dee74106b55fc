// What the hub has to tell a sender (a reply, a permission prompt): stored first, so a sender who
// was away gets it when they come back, then handed to the surfaces that show senders' items (the
// HTTP streams, the chat bridges, the page), which the core knows only as listeners of
// HubEvents.stored. Every item is written as a message of core/outbox.ts and read back through it
// here: one that does not read (a newer hub's kind, a row written by hand) is logged and skipped,
// and the items after it are still shown.
import { type OutboxKind, type OutboxMessage, readOutboxMessage } from '../../core/outbox.js'
import type { OutboxItem, Store, StoredOutboxItem } from '../../store/store.js'
import type { HubEvents, ShownOutcome } from '../core/hub-events.js'

export type { ShownOutcome } from '../core/hub-events.js'

/** Where an unreadable item is reported (the hub's log). */
export type Unreadable = (item: { id: number; senderId: string; kind: string }, reason: string) => void

/** Unreadable items already reported: a stream's catch-up reads them again, and says so once. */
const REPORTED = 1000

export class SenderOutbox {
  private readonly reported = new Set<number>()

  constructor(
    private readonly store: Store,
    private readonly events: Pick<HubEvents, 'stored' | 'missed'>,
    private readonly unreadable: Unreadable,
  ) {}

  /** Another hub may have stored items whose notice went unheard: every surface looks. */
  async catchUp(): Promise<void> {
    await this.events.missed.emit()
  }

  /**
   * An item another hub stored: the surfaces here show it if its sender is here. That item alone is
   * read: a hub behind on its notices would otherwise read each one with all the sender's items
   * since, and the further behind, the more each notice cost.
   */
  async storedElsewhere(senderId: string, itemId: number): Promise<void> {
    const item = await this.item(senderId, itemId)
    if (item) await this.events.stored.emit(item, false)
  }

  /** One of a sender's items, read as a message; null when there is none, or it does not read. */
  async item(senderId: string, id: number): Promise<OutboxItem | null> {
    const stored = await this.store.outboxItem(senderId, id)
    return stored ? (this.read([stored])[0] ?? null) : null
  }

  /**
   * The one way the hub says something to a person: stored, then handed to the surfaces; resolves
   * with what the one owning the sender said, if one did.
   */
  async send(senderId: string, message: OutboxMessage): Promise<ShownOutcome | undefined> {
    const item = await this.store.addOutbox(senderId, message)
    const said = await this.events.stored.emit(item, true)
    return said.reduce<ShownOutcome | undefined>((outcome, one) => one ?? outcome, undefined)
  }

  /** A sender's items after `afterId`, or when null, the ones never written to any stream; of one kind if given. */
  async items(senderId: string, afterId: number | null, kind?: OutboxKind): Promise<OutboxItem[]> {
    return this.read(await this.store.outboxFor(senderId, afterId, kind))
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
