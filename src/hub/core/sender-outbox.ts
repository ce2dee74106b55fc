// What the hub has to tell a sender (a reply, a permission prompt): stored first, so a sender who
// was away gets it when they come back, then handed to the surfaces that show senders' items (the
// HTTP streams, the chat bridges). The core knows them only as listeners.
import type { OutboxItem, Store } from '../../store/store.js'

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

export class SenderOutbox {
  private readonly listeners: OutboxListener[] = []
  private readonly catchUps: (() => Promise<void>)[] = []

  constructor(private readonly store: Store) {}

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
    const item = (await this.store.outboxFor(senderId, itemId - 1)).find((i) => i.id === itemId)
    if (item) for (const listener of this.listeners) await listener(item)
  }

  /** Resolves with what the surface owning the sender said, if one did. */
  async send(
    senderId: string,
    kind: string,
    body: Record<string, unknown>,
  ): Promise<ShownOutcome | undefined> {
    const item = await this.store.addOutbox(senderId, kind, body)
    let outcome: ShownOutcome | undefined
    for (const listener of this.listeners) outcome = (await listener(item)) ?? outcome
    return outcome
  }
}
